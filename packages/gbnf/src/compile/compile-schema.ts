/**
 * `compileSchema`: JSON Schema → GBNF, sound by construction. See the package README
 * ("Compiling JSON Schema") for the conventions an instance is written in, what is exact and
 * what is narrowed.
 * @module
 */

import { DEFAULT_SCHEMA_DIALECT, type SchemaDialect, schemaDialect } from '@xprotocol/json-schema-vocabulary';
import { _compileArray } from './arrays.js';
import { _alternatives } from './combinators.js';
import { GbnfCompileError } from './compile-error.js';
import type { _Ctx } from './context.js';
import { _expand, type _Flat, _hasOwnConstraints, _merge, _typeAllowed } from './flat.js';
import { _GrammarBuilder } from './grammar-builder.js';
import { _check, _jsonEqual } from './instance-check.js';
import { _boolean, _value, _valueLiteral, _ws } from './json-primitives.js';
import { _compileObject } from './objects.js';
import { _resolveOptions, type CompileOptions, type ResolvedCompileOptions } from './options.js';
import { type _Loc, _RefIndex } from './refs.js';
import { _compileNumber, _compileString } from './scalars.js';

/** The result of {@link compileSchema}. */
export interface CompiledGrammar {
  /** GBNF text; the start rule is `root`. */
  readonly gbnf: string;
  /**
   * `true` when the grammar accepts exactly the instances the schema accepts (written in the
   * conventions of the README); `false` when something was narrowed (or widened, with
   * `allowWidening`) — each such keyword is named in `warnings`.
   */
  readonly exact: boolean;
  /** One line per narrowed/widened/ignored keyword: `<JSON pointer>: <what and why>`. */
  readonly warnings: readonly string[];
  /** The dialect the schema was read as. */
  readonly draft: SchemaDialect;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

class Compiler implements _Ctx {
  readonly g: _GrammarBuilder;
  readonly options: ResolvedCompileOptions;
  readonly index: _RefIndex;
  readonly draft: SchemaDialect;
  readonly ws: string;
  exact = true;
  readonly warnings: string[] = [];
  private readonly seenWarnings = new Set<string>();
  private readonly memo = new Map<object, string | null>();
  private readonly inProgress = new Map<object, { name: string; used: boolean }>();
  private readonly conjMemo = new Map<string, string | null>();
  private readonly conjRunning = new Map<string, { name: string; used: boolean }>();
  private readonly ids = new Map<object, number>();

  constructor(schema: unknown, options: ResolvedCompileOptions) {
    this.options = options;
    this.g = new _GrammarBuilder(options.maxRules);
    const dialect = schemaDialect(schema);
    this.draft = dialect ?? DEFAULT_SCHEMA_DIALECT;
    this.index = new _RefIndex(schema, this.draft);
    this.ws = _ws(this.g, options.maxWhitespace);
    if (dialect === undefined) {
      const named = (schema as { $schema?: unknown }).$schema;
      this.warn(
        `/$schema: ${JSON.stringify(named)} is not a dialect this compiler knows; read as ${this.draft}`,
      );
    }
  }

  private warn(line: string): void {
    if (this.seenWarnings.has(line)) return;
    this.seenWarnings.add(line);
    this.warnings.push(line);
  }
  narrow(ptr: string, message: string): void {
    this.exact = false;
    this.warn(`${ptr}: narrowed: ${message}`);
  }
  widen(ptr: string, message: string): void {
    this.exact = false;
    this.warn(`${ptr}: widened: ${message}`);
  }
  note(ptr: string, message: string): void {
    this.warn(`${ptr}: ${message}`);
  }
  synth(schema: unknown, ptr: string, base: string): _Loc {
    return { schema, ptr, base };
  }

  /** A named rule for one schema location (memoized per schema object; recursion-safe). */
  loc(loc: _Loc, label: string): string | null {
    const s = loc.schema;
    if (!isObj(s)) return this.conjBody([loc], label);
    const done = this.memo.get(s);
    if (done !== undefined) return done;
    const running = this.inProgress.get(s);
    if (running) {
      running.used = true;
      return running.name;
    }
    const name = this.g.reserve(label);
    const state = { name, used: false };
    this.inProgress.set(s, state);
    let body: string | null;
    try {
      body = this.conjBody([loc], label);
    } finally {
      this.inProgress.delete(s);
    }
    if (body === null) {
      if (state.used) {
        throw new GbnfCompileError(
          'UNSATISFIABLE',
          loc.ptr,
          'a recursive schema admits no finite instance after narrowing',
        );
      }
      this.g.drop(name);
      this.memo.set(s, null);
      return null;
    }
    if (!state.used && /^[a-z0-9-]+$/.test(body)) {
      this.g.drop(name);
      this.memo.set(s, body);
      return body;
    }
    this.g.define(name, body);
    this.memo.set(s, name);
    return name;
  }

  conj(locs: readonly _Loc[], label: string): string | null {
    if (locs.length === 0) return _value(this.g, this.options.maxWhitespace);
    if (locs.length === 1 && !locs[0]!.own) return this.loc(locs[0]!, label);
    // a conjunction of several schemas: memoized by the identities of its members, so recursion
    // through allOf/anyOf merges ends and shared merges compile once
    const key = locs.map((l) => `${this.idOf(l.schema)}${l.own ? 'o' : ''}`).join(',');
    if (this.conjMemo.has(key)) return this.conjMemo.get(key)!;
    const running = this.conjRunning.get(key);
    if (running) {
      running.used = true;
      return running.name;
    }
    const name = this.g.reserve(label);
    const state = { name, used: false };
    this.conjRunning.set(key, state);
    let body: string | null;
    try {
      body = this.conjBody(locs, label);
    } finally {
      this.conjRunning.delete(key);
    }
    if (body === null) {
      if (state.used) {
        throw new GbnfCompileError(
          'UNSATISFIABLE',
          locs[0]!.ptr,
          'a recursive schema admits no finite instance after narrowing',
        );
      }
      this.g.drop(name);
      this.conjMemo.set(key, null);
      return null;
    }
    if (!state.used && /^[a-z0-9-]+$/.test(body)) {
      this.g.drop(name);
      this.conjMemo.set(key, body);
      return body;
    }
    this.g.define(name, body);
    this.conjMemo.set(key, name);
    return name;
  }

  private idOf(schema: unknown): string {
    if (schema === null || typeof schema !== 'object') return JSON.stringify(schema);
    let id = this.ids.get(schema);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(schema, id);
    }
    return `#${id}`;
  }

  private conjBody(locs: readonly _Loc[], label: string): string | null {
    // a bare reference: share the target's rule (keeps grammars small, makes recursion work)
    if (locs.length === 1 && !locs[0]!.own) {
      const s = locs[0]!.schema;
      if (
        isObj(s) &&
        typeof s.$ref === 'string' &&
        !_hasOwnConstraints(withoutRef(s)) &&
        !hasCombinators(s)
      ) {
        const target = this.index.resolve(s.$ref, locs[0]!, `${locs[0]!.ptr}/$ref`);
        return this.loc(target, refLabel(target.ptr, label));
      }
    }
    const parts = _expand(this, locs);
    if (parts.never !== undefined) return null;
    const simple = parts.groups.length === 0 && parts.nots.length === 0 && parts.conds.length === 0;
    // a lone anyOf with nothing else to distribute over: alternatives are separate rules
    if (
      !simple &&
      parts.nots.length === 0 &&
      parts.conds.length === 0 &&
      parts.groups.length === 1 &&
      parts.groups[0]!.kind === 'anyOf' &&
      parts.plain.every((l) => !_hasOwnConstraints(l.schema as Record<string, unknown>))
    ) {
      const alts = parts.groups[0]!.branches.map((b, i) => this.loc(b, `${label}-${i}`)).filter(
        (x): x is string => x !== null,
      );
      return alts.length === 0 ? null : unique(alts).join(' | ');
    }
    const combos = simple ? [parts.plain] : _alternatives(this, parts);
    const alts: string[] = [];
    combos.forEach((combo, i) => {
      const flat = _merge(this, combo, combo[0] ?? locs[0]!);
      const e = this.flat(flat, combos.length > 1 ? `${label}-${i}` : label);
      if (e !== null) alts.push(e);
    });
    if (alts.length === 0) return null;
    return unique(alts).join(' | ');
  }

  /** The grammar of one merged conjunction. */
  private flat(f: _Flat, label: string): string | null {
    const ws = this.ws;
    if (f.values !== undefined) {
      const alts: string[] = [];
      for (const v of f.values) {
        if (!_typeAllowed(f.types, v)) continue;
        if (f.notIn.some((x) => _jsonEqual(x, v))) continue;
        const ok = f.sources.every((src) => _check(v, src, this.index) !== false);
        const sure = f.sources.every((src) => _check(v, src, this.index) === true);
        if (!ok) continue;
        if (!sure) {
          this.narrow(
            f.valuesLocs[0]?.ptr ?? f.ptr,
            `enum value ${JSON.stringify(v).slice(0, 40)} left out (the other keywords could not be checked against it)`,
          );
          continue;
        }
        const lit = _valueLiteral(v, ws);
        if (lit.narrowed)
          this.narrow(
            f.valuesLocs[0]?.ptr ?? f.ptr,
            'an enum/const object with more than 4 members is accepted in written or sorted member order only',
          );
        alts.push(lit.expr);
      }
      if (alts.length === 0) return null;
      return this.g.rule(`${label}-value`, unique(alts).join(' | '));
    }
    const alts: string[] = [];
    const t = f.types;
    if (t.has('null') && !f.notIn.includes(null)) alts.push('"null"');
    if (t.has('boolean')) {
      const bools = [true, false].filter((b) => !f.notIn.includes(b));
      if (bools.length === 2) alts.push(_boolean(this.g));
      else if (bools.length === 1) alts.push(`"${bools[0]}"`);
    }
    if (t.has('object')) {
      if (f.notIn.some((v) => isObj(v)))
        this.narrow(f.ptr, 'objects are left out (excluding object values cannot be expressed)');
      else {
        const e = _compileObject(this, f, label);
        if (e !== null) alts.push(e);
      }
    }
    if (t.has('array')) {
      if (f.notIn.some((v) => Array.isArray(v)))
        this.narrow(f.ptr, 'arrays are left out (excluding array values cannot be expressed)');
      else {
        const e = _compileArray(this, f, label);
        if (e !== null) alts.push(e);
      }
    }
    if (t.has('string')) {
      const e = _compileString(this, f, label);
      if (e !== null) alts.push(e);
    }
    if (t.has('number') || t.has('integer')) {
      const e = _compileNumber(this, f, label);
      if (e !== null) alts.push(e);
    }
    if (alts.length === 0) return null;
    return alts.length === 1 ? alts[0]! : this.g.rule(label, alts.join(' | '));
  }

  compileRoot(schema: unknown): string {
    const root = this.g.reserve('root');
    const body = this.conjBody([this.index.root], 'root');
    if (body === null) {
      const why = this.warnings
        .filter((w) => w.includes('narrowed'))
        .slice(0, 3)
        .join('; ');
      throw new GbnfCompileError(
        'UNSATISFIABLE',
        '#',
        `the schema (after narrowing) accepts no instance${why ? ` — ${why}` : ''}`,
      );
    }
    void schema;
    const ws = this.ws;
    this.g.define(root, `${ws} ( ${body} ) ${ws}`);
    return this.g.print();
  }
}

function withoutRef(s: Record<string, unknown>): Record<string, unknown> {
  const { $ref: _r, ...rest } = s;
  return rest;
}

function hasCombinators(s: Record<string, unknown>): boolean {
  return ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'dependentSchemas'].some((k) => k in s);
}

function refLabel(ptr: string, fallback: string): string {
  if (ptr === '#') return 'root';
  const segs = ptr.split('/');
  const last = segs[segs.length - 1] ?? fallback;
  const decoded = last.replace(/~1/g, '/').replace(/~0/g, '~');
  // URLs and dotted names (io.k8s.api.core.v1.Pod) keep their last parts: v1-pod
  const tail = decoded.split(/[#/]/).filter(Boolean).pop() ?? decoded;
  return `def-${tail.split('.').slice(-2).join('-')}`;
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}

/**
 * Compiles a JSON Schema into a GBNF grammar (start rule `root`) that accepts only instances the
 * schema accepts. Throws {@link GbnfCompileError} (with the JSON pointer of the offending keyword)
 * when no sound grammar can be built.
 * @example
 * const { gbnf, exact } = compileSchema({
 *   type: 'object',
 *   properties: { path: { type: 'string' }, encoding: { enum: ['utf-8', 'base64'] } },
 *   required: ['path'],
 *   additionalProperties: false,
 * });
 * // exact === true; gbnf accepts {"path":"a.txt"} and {"path":"a","encoding":"base64"}
 */
export function compileSchema(schema: unknown, options?: CompileOptions): CompiledGrammar {
  const resolved = _resolveOptions(options);
  if (typeof schema !== 'boolean' && !isObj(schema)) {
    throw new GbnfCompileError(
      'INVALID_SCHEMA',
      '#',
      `expected a schema (object or boolean), got ${typeof schema}`,
    );
  }
  const c = new Compiler(schema, resolved);
  const gbnf = c.compileRoot(schema);
  return { gbnf, exact: c.exact, warnings: [...c.warnings], draft: c.draft };
}
