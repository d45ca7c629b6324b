/**
 * Objects. Convention: declared properties (`properties`, in declaration order, then names that
 * are only `required`) come first, each present or absent as the schema allows; additional
 * properties (when allowed) come after them, in any order. An additional name never equals a
 * declared one. Names are spelled as `JSON.stringify` spells them.
 * @module
 */
import type { _Ctx } from './context.js';
import type { _Flat } from './flat.js';
import { _check } from './instance-check.js';
import { _stringLiteral, _value } from './json-primitives.js';
import { _patternContent } from './pattern.js';
import { _child, type _Loc } from './refs.js';
import { type _Member, _sequence } from './sequence.js';
import { _stringNotIn } from './string-complement.js';

const isObj = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function regexTest(p: string, s: string): boolean | undefined {
  try {
    return new RegExp(p, 'u').test(s);
  } catch {
    return undefined;
  }
}

const isTrivial = (s: unknown) => s === true || (isObj(s) && Object.keys(s).length === 0);

/** @internal The object part of a flat, or `null` when no object is allowed. */
export function _compileObject(ctx: _Ctx, f: _Flat, label: string): string | null {
  const g = ctx.g;
  const ws = ctx.ws;
  const parts = f.objParts;
  const required = new Set(f.required);
  const names: string[] = [];
  for (const part of parts) {
    const props = (part.schema as Record<string, unknown>).properties;
    if (isObj(props)) for (const k of Object.keys(props)) if (!names.includes(k)) names.push(k);
  }
  for (const r of f.required) if (!names.includes(r)) names.push(r);
  const hasAddl = parts.some((p) => 'additionalProperties' in (p.schema as object));
  // dependentRequired: a required trigger makes its dependencies required; optional triggers
  // (up to 4) split the object into alternatives — trigger absent, or trigger and dependencies
  // present — which is exact; beyond 4 the extra triggers are left out (narrowed)
  for (const d of f.dependentRequired) {
    if (!required.has(d.name)) continue;
    for (const x of d.deps) {
      required.add(x);
      if (!names.includes(x)) names.push(x);
    }
  }
  const forbidden = new Set<string>();
  const triggers: { name: string; deps: string[] }[] = [];
  for (const d of f.dependentRequired) {
    // a trigger must never slip in as an additional member: it is always a declared member
    if (!names.includes(d.name)) names.push(d.name);
    if (required.has(d.name) || d.deps.every((x) => required.has(x))) continue;
    const t = triggers.find((x) => x.name === d.name);
    if (t) t.deps.push(...d.deps);
    else if (triggers.length < 4) triggers.push({ name: d.name, deps: [...d.deps] });
    else {
      forbidden.add(d.name);
      ctx.narrow(
        d.ptr,
        `property ${JSON.stringify(d.name)} is left out (more than 4 optional dependentRequired triggers)`,
      );
    }
    for (const x of d.deps) if (!names.includes(x)) names.push(x);
  }
  const values = new Map<string, string | null>();
  for (const name of names) {
    const vals: _Loc[] = [];
    let out = forbidden.has(name);
    let evaluated = false;
    for (const part of parts) {
      const o = part.schema as Record<string, unknown>;
      const props = isObj(o.properties) ? o.properties : {};
      let matched = false;
      if (Object.hasOwn(props, name)) {
        vals.push(_child(part, props[name], 'properties', name));
        matched = true;
      }
      if (isObj(o.patternProperties)) {
        for (const [p, ps] of Object.entries(o.patternProperties)) {
          const m = regexTest(p, name);
          if (m === undefined) {
            out = true;
            ctx.narrow(
              `${part.ptr}/patternProperties`,
              `pattern ${JSON.stringify(p)} is not a valid u-mode regex; property ${JSON.stringify(name)} is left out`,
            );
          } else if (m) {
            vals.push(_child(part, ps, 'patternProperties', p));
            matched = true;
          }
        }
      }
      if (!matched && 'additionalProperties' in o)
        vals.push(_child(part, o.additionalProperties, 'additionalProperties'));
      if (matched || 'additionalProperties' in o) evaluated = true;
      if ('propertyNames' in o) {
        const ok = _check(name, _child(part, o.propertyNames, 'propertyNames'), ctx.index);
        if (ok !== true) {
          out = true;
          if (ok === undefined)
            ctx.narrow(
              `${part.ptr}/propertyNames`,
              `cannot decide whether ${JSON.stringify(name)} is a valid name; it is left out`,
            );
        }
      }
    }
    if (!evaluated && !hasAddl) vals.push(...f.unevaluatedProperties);
    values.set(name, out ? null : ctx.conj(vals, `${label}-${name}`));
  }
  const extra = extras(ctx, f, names, label);
  const alts: string[] = [];
  for (let mask = 0; mask < 1 << triggers.length; mask++) {
    const req = new Set(required);
    const out = new Set(forbidden);
    triggers.forEach((t, i) => {
      if (mask & (1 << i)) {
        req.add(t.name);
        for (const x of t.deps) req.add(x);
      } else out.add(t.name);
    });
    const members: _Member[] = [];
    let possible = true;
    for (const name of names) {
      const value = out.has(name) ? null : (values.get(name) ?? null);
      if (value === null) {
        if (req.has(name)) possible = false;
        continue;
      }
      members.push({
        expr: `${_stringLiteral(name)} ${ws} ":" ${ws} ${value} ${ws}`,
        required: req.has(name),
      });
    }
    if (!possible) continue;
    const inner = _sequence(ctx, members, extra, f.minProperties, f.maxProperties, `${label}-obj`, f.ptr);
    if (inner !== null) alts.push(`"{" ${ws} ${inner === '""' ? '' : `${inner} `}"}"`.replace(/ {2,}/g, ' '));
  }
  if (alts.length === 0) return null;
  return g.rule(`${label}-obj`, alts.length === 1 ? alts[0]! : alts.map((a) => `( ${a} )`).join(' | '));
}

/** The grammar of one additional member (`"name" : value`), or `null` when none may appear. */
function extras(ctx: _Ctx, f: _Flat, declared: string[], label: string): string | null {
  const parts = f.objParts;
  const withPatterns = parts.filter((p) => {
    const pp = (p.schema as Record<string, unknown>).patternProperties;
    return isObj(pp) && Object.keys(pp).length > 0;
  });
  const hasNames = parts.find((p) => 'propertyNames' in (p.schema as object));
  const x: Extras = { ctx, f, declared, label };
  const hasAddl = parts.some((p) => 'additionalProperties' in (p.schema as object));
  const addlVals = parts
    .filter((p) => addlOf(p) !== undefined)
    .map((p) => _child(p, addlOf(p), 'additionalProperties'));
  if (!hasAddl) addlVals.push(...f.unevaluatedProperties);
  if (withPatterns.length === 0) {
    if (parts.some((p) => addlOf(p) === false) || addlVals.some((l) => l.schema === false)) return null;
    if (hasNames) return namedExtras(x, hasNames, addlVals);
    return extraMember(x, _stringNotIn(ctx.g, declared, `${label}-key`), addlVals, `${label}-additional`);
  }
  if (withPatterns.length > 1 || hasNames) {
    ctx.narrow(
      withPatterns[0]!.ptr,
      'additional properties are not accepted (patternProperties in several merged schemas, or with propertyNames)',
    );
    return null;
  }
  return patternExtras(x, withPatterns[0]!, hasAddl);
}

/** What the additional members of one object are compiled from. */
interface Extras {
  readonly ctx: _Ctx;
  readonly f: _Flat;
  /** The declared names, which an additional member never has. */
  readonly declared: string[];
  readonly label: string;
}

/** A part's `additionalProperties` (undefined when it has none). */
function addlOf(p: _Loc): unknown {
  return (p.schema as Record<string, unknown>).additionalProperties;
}

/** One member `key : value` whose value satisfies every schema of `vals` (any value when none). */
function extraMember(x: Extras, key: string, vals: _Loc[], keyLabel: string): string | null {
  const { ctx, label } = x;
  const v = vals.length === 0 ? _value(ctx.g, ctx.options.maxWhitespace) : ctx.conj(vals, keyLabel);
  return v === null ? null : ctx.g.rule(`${label}-extra`, `${key} ${ctx.ws} ":" ${ctx.ws} ${v} ${ctx.ws}`);
}

/**
 * Additional members under `propertyNames` (in the part `hasNames`): the undeclared names of its
 * `enum`/`const` that every part's `propertyNames` accepts, or any undeclared name when it is
 * trivial; other name schemas are narrowed to none.
 */
function namedExtras(x: Extras, hasNames: _Loc, addlVals: _Loc[]): string | null {
  const { ctx, f, declared, label } = x;
  const parts = f.objParts;
  const pn = (hasNames.schema as Record<string, unknown>).propertyNames;
  const values = isObj(pn)
    ? 'const' in pn
      ? [pn.const]
      : Array.isArray(pn.enum)
        ? pn.enum
        : undefined
    : undefined;
  const namesOk = values?.filter(
    (v): v is string =>
      typeof v === 'string' &&
      !declared.includes(v) &&
      parts.every(
        (p) =>
          !('propertyNames' in (p.schema as object)) ||
          _check(
            v,
            _child(p, (p.schema as Record<string, unknown>).propertyNames, 'propertyNames'),
            ctx.index,
          ) === true,
      ),
  );
  if (namesOk === undefined) {
    if (pn === false) return null;
    if (isTrivial(pn))
      return extraMember(x, _stringNotIn(ctx.g, declared, `${label}-key`), addlVals, `${label}-additional`);
    ctx.narrow(
      `${hasNames.ptr}/propertyNames`,
      'additional properties under propertyNames (other than enum/const) are not accepted',
    );
    return null;
  }
  if (namesOk.length === 0) return null;
  const key = ctx.g.rule(`${label}-key`, namesOk.map((n) => _stringLiteral(n)).join(' | '));
  return extraMember(x, key, addlVals, `${label}-additional`);
}

/**
 * Additional members of an object whose part `P` is the only one with `patternProperties`: names
 * matching a pattern when `additionalProperties` is false there, else any undeclared name.
 */
function patternExtras(x: Extras, P: _Loc, hasAddl: boolean): string | null {
  const { f, label } = x;
  const po = P.schema as Record<string, unknown>;
  const pats = Object.entries(po.patternProperties as Record<string, unknown>);
  const patVals = pats.map(([p, s]) => _child(P, s, 'patternProperties', p));
  const others = f.objParts.filter((p) => p !== P);
  if (others.some((p) => addlOf(p) === false)) return null;
  const otherVals = others
    .filter((p) => addlOf(p) !== undefined)
    .map((p) => _child(p, addlOf(p), 'additionalProperties'));
  if (po.additionalProperties === false) return patternNamedExtras(x, P, pats, [...patVals, ...otherVals]);
  // additionalProperties true or a schema: any undeclared name; the value must satisfy every
  // pattern schema (a name may match any of them) and additionalProperties
  const vals = [...patVals, ...otherVals];
  if (po.additionalProperties !== undefined)
    vals.push(_child(P, po.additionalProperties, 'additionalProperties'));
  if (!hasAddl) vals.push(...f.unevaluatedProperties);
  if (
    !pats.every(([, s]) => isTrivial(s)) ||
    (po.additionalProperties !== undefined && !isTrivial(po.additionalProperties))
  ) {
    x.ctx.narrow(
      `${P.ptr}/patternProperties`,
      'additional property values must satisfy every patternProperties schema and additionalProperties',
    );
  }
  return extraMember(x, _stringNotIn(x.ctx.g, x.declared, `${label}-key`), vals, `${label}-additional`);
}

/**
 * Members whose names match one of `pats` (the patterns of part `P`, which has
 * `additionalProperties: false`); each value satisfies every schema of `vals`, and a declared
 * property's schema too when a pattern may match its name.
 */
function patternNamedExtras(x: Extras, P: _Loc, pats: [string, unknown][], vals: _Loc[]): string | null {
  const { ctx, declared, label } = x;
  const po = P.schema as Record<string, unknown>;
  const keys: string[] = [];
  if (pats.length > 1 && !pats.every(([, s]) => isTrivial(s))) {
    ctx.narrow(
      `${P.ptr}/patternProperties`,
      'each pattern-matched value must satisfy every patternProperties schema (a name may match several patterns)',
    );
  }
  for (const [p] of pats) {
    const c = _patternContent(ctx, p, `${P.ptr}/patternProperties`, `${label}-pkey`, 'canonical');
    if (c === null) {
      ctx.narrow(
        `${P.ptr}/patternProperties`,
        `pattern ${JSON.stringify(p)} could not be translated; such names are not accepted`,
      );
      continue;
    }
    keys.push(`"\\"" ${c} "\\""`);
  }
  if (keys.length === 0) return null;
  for (const d of declared) {
    if (pats.some(([p]) => regexTest(p, d) !== false)) {
      const props = isObj(po.properties) ? po.properties : {};
      if (Object.hasOwn(props, d)) vals.push(_child(P, props[d], 'properties', d));
      ctx.narrow(
        `${P.ptr}/patternProperties`,
        `a pattern-matched name may repeat declared property ${JSON.stringify(d)}, so its value must also satisfy that property`,
      );
    }
  }
  return extraMember(x, ctx.g.rule(`${label}-pkey`, keys.join(' | ')), vals, `${label}-pattern-value`);
}
