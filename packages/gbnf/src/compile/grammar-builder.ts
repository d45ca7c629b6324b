/**
 * A rule table that hands out unique, deterministic names and shares identical rule bodies.
 * @module
 */
import { GbnfCompileError } from './compile-error.js';
import { _ruleName } from './rule-names.js';

/** @internal Collects the rules of one grammar, in the order they are first named. */
export class _GrammarBuilder {
  private readonly bodies = new Map<string, string>();
  private readonly byBody = new Map<string, string>();
  private readonly maxRules: number;
  private readonly next = new Map<string, number>();

  constructor(maxRules: number) {
    this.maxRules = maxRules;
  }

  /** Reserves a fresh name derived from `label` (for recursive rules defined later). */
  reserve(label: string): string {
    const base = _ruleName(label);
    let name = base;
    let i = this.next.get(base) ?? 2;
    while (this.bodies.has(name) || (RESERVED.has(name) && label !== 'root')) name = `${base}-${i++}`;
    this.next.set(base, i);
    if (this.bodies.size >= this.maxRules) {
      throw new GbnfCompileError('TOO_LARGE', '#', `grammar exceeds maxRules (${this.maxRules})`);
    }
    this.bodies.set(name, '');
    return name;
  }

  /**
   * Reserves exactly `name` (a name {@link freshPrefix} made room for), counting it against
   * `maxRules`.
   */
  reserveExact(name: string): void {
    if (this.bodies.has(name)) throw new Error(`rule ${name} already exists`);
    if (this.bodies.size >= this.maxRules) {
      throw new GbnfCompileError('TOO_LARGE', '#', `grammar exceeds maxRules (${this.maxRules})`);
    }
    this.bodies.set(name, '');
  }

  /** The body of rule `name`, or `undefined` when there is no such rule. */
  body(name: string): string | undefined {
    return this.bodies.get(name);
  }

  /** Sets the body of a reserved name. */
  define(name: string, body: string): void {
    this.bodies.set(name, body);
    if (!this.byBody.has(body)) this.byBody.set(body, name);
  }

  /** A rule named after `label` with `body`; an existing rule with the same body is reused. */
  rule(label: string, body: string): string {
    const existing = this.byBody.get(body);
    if (existing !== undefined) return existing;
    if (/^[a-z0-9-]+$/.test(body) && this.bodies.has(body)) return body;
    const name = this.reserve(label);
    this.define(name, body);
    return name;
  }

  /** A fixed, shared rule (e.g. `ws`, `string`) defined once under exactly `name`. */
  fixed(name: string, body: () => string): string {
    if (!this.bodies.has(name)) {
      this.bodies.set(name, '');
      this.define(name, body());
    }
    return name;
  }

  /**
   * A prefix for rules defined elsewhere (the regex translator names its rules `<prefix>` and
   * `<prefix>-…`): no existing rule has that name or starts with it.
   */
  freshPrefix(label: string): string {
    const base = _ruleName(label);
    for (let i = 1; ; i++) {
      const p = i === 1 ? base : `${base}-${i}`;
      let clash = RESERVED.has(p);
      for (const name of this.bodies.keys()) {
        if (name === p || name.startsWith(`${p}-`)) {
          clash = true;
          break;
        }
      }
      if (!clash) return p;
    }
  }

  /** Forgets a reserved name that turned out not to be needed. */
  drop(name: string): void {
    const body = this.bodies.get(name);
    this.bodies.delete(name);
    if (body !== undefined && this.byBody.get(body) === name) this.byBody.delete(body);
  }

  has(name: string): boolean {
    return this.bodies.has(name);
  }

  /**
   * The grammar text: `root` first, then the rules `root` reaches, in creation order (rules left
   * behind by a construction that was replaced, e.g. the operands of an intersection, are dropped).
   */
  print(): string {
    const reached = new Set<string>();
    const stack = ['root'];
    while (stack.length > 0) {
      const name = stack.pop()!;
      if (reached.has(name)) continue;
      const body = this.bodies.get(name);
      if (body === undefined) continue;
      reached.add(name);
      for (const ref of _namesIn(body)) if (!reached.has(ref)) stack.push(ref);
    }
    const lines: string[] = [];
    const root = this.bodies.get('root');
    if (root !== undefined) lines.push(`root ::= ${root}`);
    for (const [name, body] of this.bodies)
      if (name !== 'root' && reached.has(name)) lines.push(`${name} ::= ${body}`);
    return `${lines.join('\n')}\n`;
  }
}

/**
 * @internal The words of a GBNF rule body that may name rules: everything outside string
 * literals, character classes and `{m,n}` counts (a superset of the references).
 */
export function _namesIn(body: string): string[] {
  // one left-to-right pass: a class may hold a '"' and a literal a '['
  const stripped = body.replace(/"(?:[^"\\]|\\.)*"|\[(?:[^\]\\]|\\.)*\]|\{[0-9,\s]*\}/g, ' ');
  return stripped.match(/[a-zA-Z0-9-]+/g) ?? [];
}

/** Names of the shared rules ({@link _GrammarBuilder.fixed}); labels never take them. */
const RESERVED = new Set<string>([
  'root',
  'ws',
  'value',
  'object',
  'array',
  'string',
  'char',
  'hex',
  'number',
  'integer',
  'integer-d4',
  'decoded-cp',
  'boolean',
  'null',
  'char-cp',
  'hex-ns',
  'canon-char',
  'digit',
  'int',
  'frac',
  'exp',
  'nat',
]);
