/**
 * Schema versions (docs/design.md §12). A new contract is `1.0.0`. Against the previous
 * contract of the same kind:
 * - **major** — anything that can reject a call the previous contract accepted: a required
 *   property added, a property removed, a type narrowed, an enum or const narrowed, a bound
 *   tightened, `additionalProperties` tightened, a constraint added, the required capability
 *   changed, the dialect changed — and every change this comparison cannot prove harmless;
 * - **minor** — the contract accepts more: an optional property added, an enum widened, a type
 *   widened, a bound loosened, a constraint removed; or the response schema changed (it never
 *   rejects a call);
 * - **patch** — nothing that validation sees: descriptions, titles, annotations, semantic fields,
 *   declaration order of properties;
 * - **none** — the same contract (the grammar fields are derived from the payload and ignored).
 * "Accepts" is about declared properties: a value a client sent under a property name the
 * previous schema did not declare was never part of the contract, so declaring that property
 * later is minor.
 * @module
 */
import { CONSTRAINING_KEYWORDS, KEYWORDS } from '@xprotocol/json-schema-vocabulary';
import { _jsonEqual, _pointerToken } from './_json-util.js';
import { canonicalSchemaJson } from './canonical.js';
import type { SchemaContract } from './contract.js';
import { TranslateError } from './errors.js';
import { isJsonObject, type JsonObject, type JsonSchema, type JsonValue } from './json.js';

/** How far a version moves. */
export type VersionBump = 'none' | 'patch' | 'minor' | 'major';

/** The bump between two contracts and every reason found (each prefixed with where). */
export interface VersionChange {
  bump: VersionBump;
  reasons: string[];
}

const RANK: Record<VersionBump, number> = { none: 0, patch: 1, minor: 2, major: 3 };

/** Keywords that validate or identify; every other keyword is an annotation (a change there is a patch). */
const VALIDATION: ReadonlySet<string> = new Set(
  [...KEYWORDS].filter(([, info]) => info.role !== 'annotation').map(([name]) => name),
);

/**
 * Keywords whose removal only loosens a schema (present before, absent now → minor): every
 * constraining keyword except those whose removal can also tighten or re-target one — `properties`
 * and `patternProperties` (they exempt names from `additionalProperties`), `prefixItems` (it moves
 * where `items` starts), `nullable` (it widens `type`) and the dynamic references.
 */
const REMOVAL_LOOSENS: ReadonlySet<string> = new Set(
  [...CONSTRAINING_KEYWORDS].filter(
    (name) =>
      ![
        'properties',
        'patternProperties',
        'prefixItems',
        'nullable',
        '$dynamicRef',
        '$recursiveRef',
      ].includes(name),
  ),
);

const LOWER = new Set([
  'minimum',
  'exclusiveMinimum',
  'minLength',
  'minItems',
  'minProperties',
  'minContains',
]);
const UPPER = new Set([
  'maximum',
  'exclusiveMaximum',
  'maxLength',
  'maxItems',
  'maxProperties',
  'maxContains',
]);

class _Collector {
  bump: VersionBump = 'none';
  readonly reasons: string[] = [];
  constructor(readonly prefix = '') {}
  add(bump: VersionBump, reason: string): void {
    if (RANK[bump] > RANK[this.bump]) this.bump = bump;
    this.reasons.push(`${bump}: ${this.prefix}${reason}`);
  }
}

/**
 * Compares a payload schema with its previous form.
 * @example
 * compareSchemas({ type: 'object', properties: { a: {} } }, { type: 'object', properties: { a: {} }, required: ['a'] });
 * // { bump: 'major', reasons: ['major: /required: "a" is now required'] }
 */
export function compareSchemas(previous: JsonSchema, next: JsonSchema): VersionChange {
  return _compareSchemas(previous, next, new _Collector());
}

function _compareSchemas(previous: JsonSchema, next: JsonSchema, out: _Collector): VersionChange {
  _compare(previous, next, '', out);
  if (out.bump === 'none' && canonicalSchemaJson(previous) !== canonicalSchemaJson(next)) {
    out.add('patch', 'property declaration order changed');
  }
  return { bump: out.bump, reasons: out.reasons };
}

/**
 * Compares two contracts of the same kind (see the module comment for the rule).
 * @example
 * compareContracts(v1, { ...v1, description: 'Clearer words' }).bump; // 'patch'
 */
export function compareContracts(previous: SchemaContract, next: SchemaContract): VersionChange {
  const out = new _Collector();
  if (previous.kind !== next.kind) out.add('major', `kind changed from ${previous.kind} to ${next.kind}`);
  if (previous.auth.required_capability !== next.auth.required_capability) {
    out.add(
      'major',
      `required capability changed from ${previous.auth.required_capability} to ${next.auth.required_capability}`,
    );
  }
  const payload = _compareSchemas(previous.payload, next.payload, new _Collector('payload '));
  if (RANK[payload.bump] > RANK[out.bump]) out.bump = payload.bump;
  out.reasons.push(...payload.reasons);
  const prevSource = previous.source as unknown as JsonObject;
  const nextSource = next.source as unknown as JsonObject;
  if (!_jsonEqual(prevSource.execution, nextSource.execution)) {
    out.add('major', 'source.execution changed (task support decides how a call must be made)');
  }
  if (!_jsonEqual(previous.response as unknown as JsonValue, next.response as unknown as JsonValue)) {
    out.add('minor', 'response schema changed (a response change never rejects a call)');
  }
  if (!_jsonEqual(prevSource.outputSchema, nextSource.outputSchema)) {
    out.add('minor', 'source.outputSchema changed (a response change never rejects a call)');
  }
  for (const field of ['description', 'title', 'semantic', 'error_response'] as const) {
    const a = (previous as unknown as JsonObject)[field];
    const b = (next as unknown as JsonObject)[field];
    if (!_jsonEqual(a, b)) out.add('patch', `${field} changed`);
  }
  for (const field of Object.keys({ ...prevSource, ...nextSource })) {
    if (field === 'execution' || field === 'outputSchema') continue;
    if (!_jsonEqual(prevSource[field], nextSource[field])) out.add('patch', `source.${field} changed`);
  }
  return { bump: out.bump, reasons: out.reasons };
}

/**
 * The version of `next` given the previous contract of its kind and that contract's version
 * (defaults to `previous.version`). No previous contract → `1.0.0`; no change → the same version.
 * @example
 * nextVersion(undefined, c); // '1.0.0'
 * nextVersion(c, withNewRequiredField, '1.4.2'); // '2.0.0'
 */
export function nextVersion(
  previous: SchemaContract | undefined,
  next: SchemaContract,
  previousVersion?: string,
): string {
  if (previous === undefined) return '1.0.0';
  return bumpVersion(previousVersion ?? previous.version, compareContracts(previous, next).bump);
}

/**
 * Applies a bump to a `MAJOR.MINOR.PATCH` version. Throws {@link TranslateError} `INVALID_VERSION`.
 * @example
 * bumpVersion('1.2.3', 'minor'); // '1.3.0'
 */
export function bumpVersion(version: string, bump: VersionBump): string {
  const m = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(version);
  if (!m)
    throw new TranslateError(
      'INVALID_VERSION',
      `expected a version MAJOR.MINOR.PATCH, got ${JSON.stringify(version)}`,
    );
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  switch (bump) {
    case 'none':
      return version;
    case 'patch':
      return `${major}.${minor}.${patch + 1}`;
    case 'minor':
      return `${major}.${minor + 1}.0`;
    case 'major':
      return `${major + 1}.0.0`;
  }
}

function _isOpen(schema: JsonSchema): boolean {
  if (schema === true) return true;
  if (schema === false) return false;
  return Object.keys(schema).every((k) => !VALIDATION.has(k));
}

function _compare(a: JsonSchema, b: JsonSchema, at: string, out: _Collector): void {
  const where = at === '' ? '/' : at;
  if (_jsonEqual(a, b)) return;
  if (a === false) {
    out.add('minor', `${where}: accepted nothing, now accepts some values`);
    return;
  }
  if (b === false) {
    out.add('major', `${where}: now accepts nothing`);
    return;
  }
  if (_isOpen(b)) {
    if (!_isOpen(a)) {
      out.add('minor', `${where}: all constraints removed`);
      return;
    }
    out.add('patch', `${where}: annotations changed`);
    return;
  }
  if (_isOpen(a)) {
    out.add('major', `${where}: constraints added to a schema that accepted anything`);
    return;
  }
  const sa = a as JsonObject;
  const sb = b as JsonObject;
  const keys = [...new Set([...Object.keys(sa), ...Object.keys(sb)])].sort();
  for (const k of keys) {
    const va = sa[k];
    const vb = sb[k];
    const ptr = `${at}/${_pointerToken(k)}`;
    if (_jsonEqual(va, vb)) continue;
    if (!VALIDATION.has(k)) {
      out.add('patch', `${ptr}: annotation changed`);
      continue;
    }
    if (vb === undefined) {
      if (k === 'properties') _properties(sa, sb, at, out);
      else if (REMOVAL_LOOSENS.has(k)) out.add('minor', `${ptr}: removed`);
      else out.add('major', `${ptr}: removed (cannot prove it loosens the schema)`);
      continue;
    }
    if (va === undefined) {
      if (k === 'properties') _properties(sa, sb, at, out);
      else if (k === 'additionalProperties' && vb === true) continue;
      else out.add('major', `${ptr}: added`);
      continue;
    }
    switch (k) {
      case 'type':
        _type(va, vb, ptr, out);
        break;
      case 'enum':
        _enum(va, vb, ptr, out);
        break;
      case 'required':
        _required(va, vb, ptr, out);
        break;
      case 'properties':
        _properties(sa, sb, at, out);
        break;
      case 'additionalProperties':
      case 'items':
      case 'additionalItems':
      case 'propertyNames':
      case 'contains':
      case 'unevaluatedProperties':
      case 'unevaluatedItems':
        if (typeof va === 'boolean' || isJsonObject(va)) {
          if (typeof vb === 'boolean' || isJsonObject(vb)) {
            _compare(va, vb, ptr, out);
            break;
          }
        }
        if (Array.isArray(va) && Array.isArray(vb) && va.length === vb.length) {
          for (const [i, item] of va.entries())
            _compare(item as JsonSchema, vb[i] as JsonSchema, `${ptr}/${i}`, out);
          break;
        }
        out.add('major', `${ptr}: changed shape`);
        break;
      case 'anyOf':
        if (Array.isArray(va) && Array.isArray(vb) && va.every((x) => vb.some((y) => _jsonEqual(x, y)))) {
          out.add('minor', `${ptr}: alternatives added`);
        } else out.add('major', `${ptr}: alternatives changed`);
        break;
      default:
        if (LOWER.has(k) && typeof va === 'number' && typeof vb === 'number') {
          out.add(
            vb < va ? 'minor' : 'major',
            `${ptr}: lower bound ${vb < va ? 'loosened' : 'tightened'} from ${va} to ${vb}`,
          );
        } else if (UPPER.has(k) && typeof va === 'number' && typeof vb === 'number') {
          out.add(
            vb > va ? 'minor' : 'major',
            `${ptr}: upper bound ${vb > va ? 'loosened' : 'tightened'} from ${va} to ${vb}`,
          );
        } else {
          out.add('major', `${ptr}: changed from ${JSON.stringify(va)} to ${JSON.stringify(vb)}`);
        }
    }
  }
}

function _properties(a: JsonObject, b: JsonObject, at: string, out: _Collector): void {
  const pa = isJsonObject(a.properties) ? a.properties : {};
  const pb = isJsonObject(b.properties) ? b.properties : {};
  const base = `${at}/properties`;
  for (const name of Object.keys(pa).sort()) {
    const ptr = `${base}/${_pointerToken(name)}`;
    if (!Object.hasOwn(pb, name)) {
      out.add('major', `${ptr}: property removed`);
      continue;
    }
    _compare(pa[name] as JsonSchema, pb[name] as JsonSchema, ptr, out);
  }
  const required = Array.isArray(b.required) ? b.required : [];
  for (const name of Object.keys(pb).sort()) {
    if (Object.hasOwn(pa, name)) continue;
    const ptr = `${base}/${_pointerToken(name)}`;
    if (required.includes(name)) out.add('major', `${ptr}: required property added`);
    else out.add('minor', `${ptr}: optional property added`);
  }
}

function _types(value: JsonValue): Set<string> | undefined {
  if (typeof value === 'string') return new Set([value]);
  if (Array.isArray(value) && value.every((t) => typeof t === 'string')) return new Set(value as string[]);
  return undefined;
}

function _type(va: JsonValue, vb: JsonValue, ptr: string, out: _Collector): void {
  const ta = _types(va);
  const tb = _types(vb);
  if (ta === undefined || tb === undefined) {
    out.add('major', `${ptr}: type changed`);
    return;
  }
  const covered = [...ta].every((t) => tb.has(t) || (t === 'integer' && tb.has('number')));
  if (!covered) {
    out.add('major', `${ptr}: type narrowed from ${JSON.stringify(va)} to ${JSON.stringify(vb)}`);
    return;
  }
  out.add('minor', `${ptr}: type widened from ${JSON.stringify(va)} to ${JSON.stringify(vb)}`);
}

function _enum(va: JsonValue, vb: JsonValue, ptr: string, out: _Collector): void {
  if (!Array.isArray(va) || !Array.isArray(vb)) {
    out.add('major', `${ptr}: enum changed`);
    return;
  }
  const lost = va.filter((x) => !vb.some((y) => _jsonEqual(x, y)));
  if (lost.length > 0) {
    out.add(
      'major',
      `${ptr}: enum narrowed (no longer allows ${lost.map((x) => JSON.stringify(x)).join(', ')})`,
    );
    return;
  }
  const gained = vb.filter((y) => !va.some((x) => _jsonEqual(x, y)));
  if (gained.length > 0)
    out.add('minor', `${ptr}: enum widened (${gained.map((x) => JSON.stringify(x)).join(', ')})`);
  else out.add('patch', `${ptr}: enum reordered`);
}

function _required(va: JsonValue, vb: JsonValue, ptr: string, out: _Collector): void {
  if (!Array.isArray(va) || !Array.isArray(vb)) {
    out.add('major', `${ptr}: required changed`);
    return;
  }
  const added = vb.filter((x) => !va.includes(x));
  if (added.length > 0) {
    out.add('major', `${ptr}: ${added.map((x) => JSON.stringify(x)).join(', ')} now required`);
    return;
  }
  const dropped = va.filter((x) => !vb.includes(x));
  if (dropped.length > 0)
    out.add('minor', `${ptr}: ${dropped.map((x) => JSON.stringify(x)).join(', ')} no longer required`);
  else out.add('patch', `${ptr}: reordered`);
}
