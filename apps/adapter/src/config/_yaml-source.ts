/**
 * Reads the YAML text into plain values while remembering where each key and value sits, so any
 * later problem can be reported at its line and column. `${ENV}` interpolation happens here, on
 * every string value (never on keys). Keys with an empty value (`args:`) count as absent.
 * @module
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import { _formatPath, type KeyPath } from './_path.js';
import { _yamlSyntaxErrors } from './_yaml-errors.js';
import type { ConfigIssue, ConfigWarning } from './errors.js';
import { interpolateEnv } from './interpolate.js';

/** A 1-based line and column. */
export interface _Position {
  line: number;
  column: number;
}

const MAX_DEPTH = 64;

function _key(path: KeyPath): string {
  return JSON.stringify(path);
}

/** The values of a YAML document with their positions. */
export class _YamlSource {
  /** The document as plain values (after interpolation). */
  value: unknown = undefined;
  /** YAML syntax errors: when there are any, nothing else is meaningful. */
  readonly syntaxIssues: ConfigIssue[] = [];
  /** Problems found while reading values (interpolation, keys that are not strings). */
  readonly issues: ConfigIssue[] = [];
  /** The YAML parser's warnings. */
  readonly warnings: ConfigWarning[] = [];
  /** Paths whose value came from `${…}` interpolation. */
  readonly interpolated = new Set<string>();
  private readonly failed: KeyPath[] = [];
  private readonly valueOffsets = new Map<string, number>();
  private readonly keyOffsets = new Map<string, number>();
  private readonly lines = new LineCounter();

  constructor(
    readonly file: string,
    text: string,
    private readonly env: Readonly<Record<string, string | undefined>>,
  ) {
    const doc = parseDocument(text, { lineCounter: this.lines, prettyErrors: false, uniqueKeys: true });
    for (const error of _yamlSyntaxErrors(text, doc.errors, (offset) => this.position(offset))) {
      this.syntaxIssues.push({
        file,
        line: error.line,
        column: error.column,
        path: '',
        message: `invalid YAML: ${error.message}`,
      });
    }
    for (const warning of doc.warnings) {
      const at = this.position(warning.pos[0]);
      this.warnings.push({ file, ...at, path: '', code: 'YAML', message: _yamlMessage(warning.message) });
    }
    if (this.syntaxIssues.length > 0) return;
    const root = doc.contents;
    if (root === null || (isScalar(root) && (root.value === null || root.value === undefined))) {
      this.syntaxIssues.push({
        file,
        line: 0,
        column: 0,
        path: '',
        message: 'the file is empty: expected a mapping with at least identity.key_file',
      });
      return;
    }
    this.value = this.walk(root, [], 0, doc);
  }

  /** 1-based position of a character offset. */
  position(offset: number): _Position {
    const pos = this.lines.linePos(offset);
    return { line: pos.line, column: pos.col };
  }

  /** Where the value at `path` is, or else its nearest ancestor that exists. */
  locate(path: KeyPath): _Position {
    for (let n = path.length; n >= 0; n--) {
      const sub = path.slice(0, n);
      const offset = this.valueOffsets.get(_key(sub)) ?? this.keyOffsets.get(_key(sub));
      if (offset !== undefined) return this.position(offset);
    }
    return { line: 1, column: 1 };
  }

  /** Where the key of the last path segment is (the value's position for a sequence index). */
  locateKey(path: KeyPath): _Position {
    const offset = this.keyOffsets.get(_key(path));
    return offset === undefined ? this.locate(path) : this.position(offset);
  }

  /** True when the key at `path` is written in the file (even with an empty value). */
  hasKey(path: KeyPath): boolean {
    return this.keyOffsets.has(_key(path));
  }

  /** True when `path` is, or lies under, a value whose interpolation failed. */
  isFailed(path: KeyPath): boolean {
    return this.failed.some((f) => f.length <= path.length && f.every((part, i) => path[i] === part));
  }

  /** The plain value at `path` (`undefined` when absent). */
  get(path: KeyPath): unknown {
    let node: unknown = this.value;
    for (const part of path) {
      if (node === null || typeof node !== 'object') return undefined;
      if (!Object.hasOwn(node, part)) return undefined;
      node = (node as Record<string | number, unknown>)[part];
    }
    return node;
  }

  /** Replaces the plain value at `path` (used to read an interpolated "8080" as a number). */
  set(path: KeyPath, value: unknown): void {
    const parent = this.get(path.slice(0, -1));
    const last = path[path.length - 1];
    if (parent !== null && typeof parent === 'object' && last !== undefined) {
      (parent as Record<string | number, unknown>)[last] = value;
    }
  }

  private walk(
    node: Node | null,
    path: KeyPath,
    depth: number,
    doc: ReturnType<typeof parseDocument>,
  ): unknown {
    if (node === null) return null;
    if (node.range) this.valueOffsets.set(_key(path), node.range[0]);
    if (depth > MAX_DEPTH) {
      this.issue(path, `nested more than ${MAX_DEPTH} levels deep`);
      return null;
    }
    if (isAlias(node)) {
      const target = node.resolve(doc);
      return target ? this.walk(target, path, depth + 1, doc) : null;
    }
    if (isScalar(node)) {
      const value = node.value;
      if (typeof value !== 'string') return typeof value === 'bigint' ? Number(value) : value;
      const result = interpolateEnv(value, this.env);
      if (!result.ok) {
        this.failed.push(path);
        this.issue(path, result.reason);
        return value;
      }
      if (result.variables.length > 0) this.interpolated.add(_key(path));
      return result.value;
    }
    if (isSeq(node)) {
      return node.items.map((item, i) => this.walk(item as Node | null, [...path, i], depth + 1, doc));
    }
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        if (!isScalar(keyNode) || keyNode.value === null || typeof keyNode.value === 'object') {
          const at = keyNode?.range ? this.position(keyNode.range[0]) : this.locate(path);
          this.issues.push({
            file: this.file,
            ...at,
            path: _formatPath(path),
            message: 'expected a plain key (a string), got a complex or empty key',
          });
          continue;
        }
        const key = String(keyNode.value);
        const childPath = [...path, key];
        if (keyNode.range) this.keyOffsets.set(_key(childPath), keyNode.range[0]);
        const valueNode = pair.value as Node | null;
        const child = valueNode === null ? null : this.walk(valueNode, childPath, depth + 1, doc);
        // an empty value (`key:` or `key: null`) means "not given"
        if (child === null) continue;
        Object.defineProperty(out, key, {
          value: child,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return null;
  }

  private issue(path: KeyPath, message: string): void {
    this.issues.push({ file: this.file, ...this.locate(path), path: _formatPath(path), message });
  }
}

/** The YAML library's message without its position suffix, starting in lower case. */
function _yamlMessage(message: string): string {
  const text = message.replace(/ at line \d+, column \d+[\s\S]*$/, '').trim();
  return text.charAt(0).toLowerCase() + text.slice(1);
}
