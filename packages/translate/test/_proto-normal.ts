/**
 * A normal form of JSON Schema for comparing a schema with its proto3 round trip: annotations
 * dropped, and each spelling the binding rewrites (an untyped string enum, a draft-04 exclusive
 * bound, non-integer bounds of an integer, `X or null`, an always-true propertyNames) put one way.
 */
import { keywordInfo } from '@xprotocol/json-schema-vocabulary';
import { boundsOf, integerBounds } from '../src/proto/scalar-rules.js';

/** A JSON Schema being normalised (any JSON). */
// biome-ignore lint/suspicious/noExplicitAny: the normal form rewrites arbitrary JSON in place
type J = any;
const ANNOTATIONS = [
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'definitions',
  '$defs',
];

export function normal(s: J): J {
  if (s === true) return {};
  if (typeof s !== 'object' || s === null || Array.isArray(s)) return s;
  const o: J = {};
  for (const [k, v] of Object.entries(s)) {
    const role = keywordInfo(k)?.role;
    // words no dialect defines decide nothing; nor do annotations and core keywords
    if (!ANNOTATIONS.includes(k) && role !== undefined && role !== 'annotation' && role !== 'core') o[k] = v;
  }
  if (Array.isArray(o.type) && o.type.length === 2 && o.type.includes('null')) {
    const inner = { ...o, type: o.type.find((t: string) => t !== 'null') };
    if (Array.isArray(o.enum)) inner.enum = o.enum.filter((v: unknown) => v !== null);
    return { nullable: normal(inner) };
  }
  if (Array.isArray(o.type)) return _union(o.type.map((t: string) => _ofType(o, t)));
  const branches = o.anyOf ?? o.oneOf;
  if (Array.isArray(branches) && branches.length === 2 && Object.keys(o).length === 1) {
    const i = branches.findIndex((b: J) => b?.type === 'null' && Object.keys(normal(b)).length === 1);
    if (i >= 0) return { nullable: normal(branches[1 - i]) };
  }
  // a union of branches of distinct JSON types: oneOf means anyOf, and the order is the types'
  if (Array.isArray(branches) && Object.keys(o).length === 1) return _union(branches);
  if (o.type === undefined && Array.isArray(o.enum) && o.enum.every((v: unknown) => typeof v === 'string'))
    o.type = 'string';
  if (o.type === undefined && typeof o.const === 'string') o.type = 'string';
  if (o.type === 'string' && Array.isArray(o.enum)) o.enum = [...new Set(o.enum)];
  if (o.type === 'number' || o.type === 'integer') {
    const b = boundsOf(o);
    for (const k of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) delete o[k];
    if (o.type === 'integer') {
      const i = integerBounds(b);
      if (i.gte !== undefined) o.minimum = i.gte;
      if (i.lte !== undefined) o.maximum = i.lte;
    } else {
      if (b.lower) o[b.lower.exclusive ? 'exclusiveMinimum' : 'minimum'] = b.lower.value;
      if (b.upper) o[b.upper.exclusive ? 'exclusiveMaximum' : 'maximum'] = b.upper.value;
    }
  }
  if (o.type === 'boolean' && Array.isArray(o.enum)) {
    const set = [...new Set(o.enum)];
    delete o.enum;
    if (set.length === 1) o.const = set[0];
  }
  if (o.uniqueItems === false) delete o.uniqueItems;
  // keywords of another type apply to nothing
  if (typeof o.type === 'string' && o.type !== 'array')
    for (const k of ['items', 'minItems', 'maxItems', 'uniqueItems']) delete o[k];
  if (o.type === 'array' && o.items === undefined) o.items = {};
  if (o.items !== undefined) o.items = normal(o.items);
  if (o.properties !== undefined) {
    const p: J = {};
    for (const k of Object.keys(o.properties).sort()) p[k] = normal(o.properties[k]);
    o.properties = p;
    if (Object.keys(p).length === 0) delete o.properties;
  }
  if (Array.isArray(o.required)) o.required = [...new Set(o.required)].sort();
  if (Array.isArray(o.required) && o.required.length === 0) delete o.required;
  if (o.additionalProperties !== undefined) {
    const a = normal(o.additionalProperties);
    if (typeof a === 'object' && a !== null && Object.keys(a).length === 0) delete o.additionalProperties;
    else o.additionalProperties = a;
  }
  if (o.propertyNames !== undefined) {
    const n = normal(o.propertyNames);
    if (Object.keys(n).length === 0 || (Object.keys(n).length === 1 && n.type === 'string'))
      delete o.propertyNames;
    else o.propertyNames = { type: 'string', ...n };
  }
  return o;
}

const TYPE_ORDER = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];
const ONLY: Record<string, string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: ['items', 'minItems', 'maxItems', 'uniqueItems'],
  object: ['properties', 'required', 'additionalProperties', 'propertyNames'],
};

/** One type of a type list, with only the keywords that apply to it. */
function _ofType(o: J, type: string): J {
  const others = new Set(Object.values(ONLY).flat());
  const out: J = { type };
  for (const [k, v] of Object.entries(o))
    if (k !== 'type' && (ONLY[type]?.includes(k) || !others.has(k))) out[k] = v;
  return out;
}

function _union(branches: J[]): J {
  const all = branches.map(normal);
  // a union of X and null, however spelled, is one normal form
  if (all.length === 2 && all.some((b) => b.type === 'null' && Object.keys(b).length === 1))
    return { nullable: all.find((b) => !(b.type === 'null' && Object.keys(b).length === 1)) };
  return { anyOf: all.sort((a, b) => TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type)) };
}
