/**
 * Schema safety (docs/design.md §11 "schema poisoning"; docs/translation.md "Safety limits"). Every
 * schema a tool brings is checked before it is published; each refusal names the JSON pointer at
 * fault.
 *
 * Refused: values that are not JSON (undefined, functions, NaN, class instances, sparse arrays),
 * unsafe integers and lone surrogates (events refuse them, docs/protocol.md §2), the keys
 * `__proto__`, `constructor` and `prototype` anywhere, nesting deeper than `maxDepth`, a
 * serialization larger than `maxBytes`, any reference that is not local to the document (`$ref`
 * other than `#…`), references that do not resolve, embedded schema resources (a non-fragment `$id`
 * below the root), and **unguarded recursion**: a cycle of references and in-place applicators
 * (`allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`) that returns to the
 * same schema without stepping into a child value. Such a schema describes nothing finite and sends
 * validators and grammar compilers into endless loops. Guarded recursion — a tree whose node refers
 * to itself through `properties`/`items` — is ordinary JSON Schema and is allowed (reported as
 * `recursive`).
 * @module
 */
import { utf8Length } from '@xprotocol/crypto';
import { schemaDialect } from '@xprotocol/json-schema-vocabulary';
import { _pointerToken, _preview } from './_json-util.js';
import { _forEachSubschema, _isSchema } from './_schema-walk.js';
import { isJsonObject, type JsonObject, type JsonSchema, type JsonValue } from './json.js';

/** Limits applied to one schema. */
export interface SchemaLimits {
  /** Deepest nesting of JSON objects/arrays, the root counting 1. */
  readonly maxDepth: number;
  /** Largest UTF-8 size of the schema's JSON text, in bytes. */
  readonly maxBytes: number;
}

/**
 * Defaults: depth 32 (the deepest schema among the 672 tools of the recorded MCP servers nests 11
 * levels), 256 KiB (the largest is about 6.4 KB).
 */
export const DEFAULT_SCHEMA_LIMITS: SchemaLimits = Object.freeze({ maxDepth: 32, maxBytes: 262_144 });

/** Keys refused anywhere: they reach `Object.prototype` in careless consumers. */
export const FORBIDDEN_KEYS: readonly string[] = Object.freeze(['__proto__', 'constructor', 'prototype']);

/** A refusal: what is wrong and where (a JSON pointer from the checked value's root). */
export interface SafetyRefusal {
  ok: false;
  pointer: string;
  reason: string;
}

/** Result of {@link checkSchemaSafety}. `recursive` is true for guarded recursion (allowed). */
export type SchemaSafetyResult = { ok: true; recursive: boolean } | SafetyRefusal;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Checks that `value` is plain JSON an event can carry: no non-JSON values, no unsafe integers or
 * lone surrogates, no forbidden keys, nesting at most `maxDepth`. `base` prefixes the pointers.
 */
export function checkJsonSafety(
  value: unknown,
  maxDepth: number = DEFAULT_SCHEMA_LIMITS.maxDepth,
  base = '',
): { ok: true } | SafetyRefusal {
  const stack: Array<[unknown, string, number]> = [[value, base, 1]];
  while (stack.length > 0) {
    const [v, at, depth] = stack.pop() as [unknown, string, number];
    const where = at === '' ? '/' : at;
    if (v === null || typeof v === 'boolean') continue;
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v))
        return refuse(where, 'string contains a lone surrogate (not well-formed Unicode)');
      continue;
    }
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return refuse(where, `${v} is not a JSON number`);
      if (Number.isInteger(v) && !Number.isSafeInteger(v)) {
        return refuse(where, `integer ${v} is outside ±(2^53-1) and cannot be carried exactly`);
      }
      continue;
    }
    if (typeof v !== 'object') return refuse(where, `${typeof v} is not a JSON value`);
    if (depth > maxDepth) return refuse(where, `nesting deeper than ${maxDepth} levels`);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        if (!(i in v)) return refuse(`${at}/${i}`, 'sparse array hole is not a JSON value');
        stack.push([v[i], `${at}/${i}`, depth + 1]);
      }
      continue;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) {
      return refuse(where, `${Object.prototype.toString.call(v)} is not a plain JSON object`);
    }
    if (Object.getOwnPropertySymbols(v).length > 0) return refuse(where, 'symbol keys are not JSON');
    // sorted, so the first problem reported does not depend on the input's key order
    const keys = Object.keys(v).sort();
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      const child = `${at}/${_pointerToken(key)}`;
      if (FORBIDDEN_KEYS.includes(key))
        return refuse(child, `key ${JSON.stringify(key)} is refused anywhere in a schema`);
      if (LONE_SURROGATE.test(key))
        return refuse(child, 'key contains a lone surrogate (not well-formed Unicode)');
      stack.push([(v as Record<string, unknown>)[key], child, depth + 1]);
    }
  }
  return { ok: true };
}

/**
 * Checks one schema (a tool's `inputSchema` or `outputSchema`) against the rules of this module.
 * `base` is the pointer of the schema inside whatever is being reported (e.g. `/inputSchema`).
 * @example
 * checkSchemaSafety({ type: 'object', properties: { a: { $ref: 'https://x.example/s.json' } } }, { base: '/inputSchema' });
 * // { ok: false, pointer: '/inputSchema/properties/a/$ref', reason: 'remote reference ...' }
 */
export function checkSchemaSafety(
  schema: unknown,
  options: { limits?: SchemaLimits; base?: string } = {},
): SchemaSafetyResult {
  const limits = options.limits ?? DEFAULT_SCHEMA_LIMITS;
  const base = options.base ?? '';
  const json = checkJsonSafety(schema, limits.maxDepth, base);
  if (!json.ok) return json;
  if (!_isSchema(schema as JsonValue)) {
    return refuse(base || '/', `expected a schema (an object or a boolean), got ${_preview(schema)}`);
  }
  const bytes = utf8Length(JSON.stringify(schema));
  if (bytes > limits.maxBytes) {
    return refuse(base || '/', `schema is ${bytes} bytes of JSON, over the ${limits.maxBytes}-byte limit`);
  }
  return _checkReferences(schema as JsonSchema, base);
}

function _checkReferences(root: JsonSchema, base: string): SchemaSafetyResult {
  const draft04 = schemaDialect(root) === 'draft-04';
  const rootId = isJsonObject(root) ? _idOf(root, draft04) : undefined;
  const rootBase = rootId?.split('#')[0];
  const graph: _Graph = {
    nodes: new Map(),
    anchors: new Map(),
    same: new Map(),
    all: new Map(),
    refs: [],
    draft04,
  };
  const gathered = _gather(root, '', graph);
  if (gathered !== undefined) return { ...gathered, pointer: `${base}${gathered.pointer}` };
  const { nodes, anchors, same, all, refs } = graph;

  // resolve references (new targets outside keyword structure are walked too)
  for (let i = 0; i < refs.length; i++) {
    const [from, at, ref] = refs[i] as [string, string, string];
    let fragment: string | undefined;
    if (ref.startsWith('#')) fragment = ref.slice(1);
    else if (rootBase !== undefined && rootBase !== '' && ref.split('#')[0] === rootBase) {
      fragment = ref.includes('#') ? ref.slice(ref.indexOf('#') + 1) : '';
    }
    if (fragment === undefined) {
      return refuse(
        `${base}${at}`,
        `remote reference ${_preview(ref)}: only local references ("#..." inside this schema) are allowed`,
      );
    }
    let target: string | undefined;
    if (fragment === '' || fragment.startsWith('/')) {
      target = _resolvePointer(root, fragment);
      if (target === undefined)
        return refuse(
          `${base}${at}`,
          `reference ${_preview(ref)} does not resolve to a schema in this document`,
        );
      if (!nodes.has(target)) {
        const found = _valueAt(root, target);
        if (!_isSchema(found))
          return refuse(`${base}${at}`, `reference ${_preview(ref)} points at a value that is not a schema`);
        // walk the newly reached part of the document the same way
        const sub = _gather(found, target, graph);
        if (sub !== undefined) return { ...sub, pointer: `${base}${sub.pointer}` };
      }
    } else {
      target = anchors.get(fragment);
      if (target === undefined)
        return refuse(`${base}${at}`, `reference ${_preview(ref)} names no anchor in this document`);
    }
    same.get(from)?.push(target);
    all.get(from)?.push(target);
  }

  const loop = _findCycle(same);
  if (loop !== undefined) {
    const path = loop.map((p) => `${base}${p}` || '/').join(' -> ');
    return refuse(
      `${base}${loop[0]}` || '/',
      `unguarded recursion: ${path} applies to the same value forever without descending into it`,
    );
  }
  return { ok: true, recursive: _findCycle(all) !== undefined };
}

interface _Graph {
  nodes: Map<string, JsonSchema>;
  anchors: Map<string, string>;
  /** Edges to schemas applied to the same instance location (in-place applicators, references). */
  same: Map<string, string[]>;
  /** Edges to every applied schema (same location or a child value). */
  all: Map<string, string[]>;
  /** [from node, pointer of the keyword, reference value] */
  refs: Array<[string, string, string]>;
  draft04: boolean;
}

/** Adds the schema at `startAt` and everything below it to the graph; a refusal's pointer is relative to the root. */
function _gather(start: JsonSchema, startAt: string, graph: _Graph): SafetyRefusal | undefined {
  const pending: Array<[JsonSchema, string]> = [[start, startAt]];
  while (pending.length > 0) {
    const [node, at] = pending.pop() as [JsonSchema, string];
    if (graph.nodes.has(at)) continue;
    graph.nodes.set(at, node);
    graph.same.set(at, []);
    graph.all.set(at, []);
    if (!isJsonObject(node)) continue;
    const id = _idOf(node, graph.draft04);
    if (at !== '' && id !== undefined) {
      if (!id.startsWith('#')) {
        const key = graph.draft04 ? 'id' : '$id';
        return refuse(
          `${at}/${key}`,
          `embedded schema resource ${_preview(id)}: an identifier below the root cannot be resolved locally; only the root may carry one`,
        );
      }
      if (id.length > 1) graph.anchors.set(id.slice(1), at);
    }
    for (const key of ['$anchor', '$dynamicAnchor'] as const) {
      const name = node[key];
      if (typeof name === 'string') graph.anchors.set(name, at);
    }
    for (const key of ['$ref', '$dynamicRef', '$recursiveRef'] as const) {
      const ref = node[key];
      if (ref === undefined) continue;
      if (typeof ref !== 'string')
        return refuse(`${at}/${key}`, `expected a string reference, got ${_preview(ref)}`);
      graph.refs.push([at, `${at}/${key}`, ref]);
    }
    _forEachSubschema(node, at, (sub) => {
      if (sub.relation === 'same') graph.same.get(at)?.push(sub.pointer);
      if (sub.relation !== 'defs') graph.all.get(at)?.push(sub.pointer);
      pending.push([sub.schema, sub.pointer]);
    });
  }
  return undefined;
}

function _idOf(node: JsonObject, draft04: boolean): string | undefined {
  const id = draft04 ? node.id : node.$id;
  return typeof id === 'string' ? id : undefined;
}

/** Resolves a JSON pointer fragment (percent-encoded, RFC 6901) to its canonical pointer, if it exists. */
function _resolvePointer(root: JsonSchema, fragment: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  if (decoded === '') return '';
  const tokens = decoded
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  let value: JsonValue = root;
  for (const token of tokens) {
    if (Array.isArray(value)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      const next: JsonValue | undefined = value[Number(token)];
      if (next === undefined) return undefined;
      value = next;
    } else if (isJsonObject(value) && Object.hasOwn(value, token)) {
      value = value[token] as JsonValue;
    } else {
      return undefined;
    }
  }
  return tokens.map((t) => `/${_pointerToken(t)}`).join('');
}

function _valueAt(root: JsonSchema, pointer: string): JsonValue | undefined {
  if (pointer === '') return root;
  let value: JsonValue | undefined = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(value)) value = value[Number(token)];
    else if (isJsonObject(value)) value = value[token];
    else return undefined;
  }
  return value;
}

/** Finds a cycle in a directed graph (iterative DFS); returns its nodes, first repeated at the end. */
function _findCycle(edges: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 1 | 2>(); // 1 = on the stack, 2 = done
  for (const start of [...edges.keys()].sort()) {
    if (state.has(start)) continue;
    const path: string[] = [start];
    const cursor: number[] = [0];
    state.set(start, 1);
    while (path.length > 0) {
      const node = path[path.length - 1] as string;
      const next = edges.get(node) ?? [];
      const i = cursor[cursor.length - 1] as number;
      if (i >= next.length) {
        state.set(node, 2);
        path.pop();
        cursor.pop();
        continue;
      }
      cursor[cursor.length - 1] = i + 1;
      const to = next[i] as string;
      const seen = state.get(to);
      if (seen === 1) return [...path.slice(path.indexOf(to)), to];
      if (seen === undefined) {
        state.set(to, 1);
        path.push(to);
        cursor.push(0);
      }
    }
  }
  return undefined;
}

function refuse(pointer: string, reason: string): SafetyRefusal {
  return { ok: false, pointer, reason };
}
