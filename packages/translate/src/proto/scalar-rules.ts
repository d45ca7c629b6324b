/**
 * Validation keywords of one scalar JSON Schema ↔ protovalidate's `(buf.validate.field)` rules, both
 * ways. Each keyword has exactly one rule and back, so the way back restores the keyword (a draft-04
 * boolean `exclusiveMinimum` comes back in its numeric form; integer bounds come back rounded to the
 * integers they admit). A keyword with no faithful rule is reported, never dropped.
 * @module
 */
import { create, type DescMessage, isFieldSet, type Message } from '@bufbuild/protobuf';
import {
  BoolRulesSchema,
  DoubleRulesSchema,
  type FieldRules,
  FieldRulesSchema,
  Int32RulesSchema,
  Int64RulesSchema,
  StringRulesSchema,
} from '@bufbuild/protovalidate/gen/buf/validate/validate_pb.js';
import type { JsonObject, JsonValue } from '../json.js';

/** A scalar's rules, or why its keywords cannot be kept. */
export type ScalarRules =
  | { ok: true; rules: FieldRules['type'] }
  | { ok: false; keyword: string; reason: string };

/** JSON Schema `format` ↔ protovalidate's well-known string rule. */
const FORMAT_RULES: Readonly<Record<string, string>> = {
  email: 'email',
  hostname: 'hostname',
  ipv4: 'ipv4',
  ipv6: 'ipv6',
  uri: 'uri',
  'uri-reference': 'uriRef',
  uuid: 'uuid',
};
const RULE_FORMATS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(FORMAT_RULES).map(([f, r]) => [r, f]),
);

/** The largest and smallest int32 and int64. */
export const INT32_MIN = -(2 ** 31);
export const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Numeric bounds read from minimum/maximum/exclusive* (draft-04 booleans too). */
export interface Bounds {
  lower?: { value: number; exclusive: boolean };
  upper?: { value: number; exclusive: boolean };
}

/** The tighter lower and upper bound a numeric schema states. */
export function boundsOf(schema: JsonObject): Bounds {
  const out: Bounds = {};
  const lower = (value: unknown, exclusive: boolean) => {
    if (typeof value !== 'number') return;
    const cur = out.lower;
    if (cur === undefined || value > cur.value || (value === cur.value && exclusive))
      out.lower = { value, exclusive };
  };
  const upper = (value: unknown, exclusive: boolean) => {
    if (typeof value !== 'number') return;
    const cur = out.upper;
    if (cur === undefined || value < cur.value || (value === cur.value && exclusive))
      out.upper = { value, exclusive };
  };
  lower(schema.minimum, schema.exclusiveMinimum === true);
  upper(schema.maximum, schema.exclusiveMaximum === true);
  lower(schema.exclusiveMinimum, true);
  upper(schema.exclusiveMaximum, true);
  return out;
}

/** Integer bounds as inclusive integers (`> 2.5` admits 3 and up). */
export function integerBounds(b: Bounds): { gte?: number; lte?: number } {
  const out: { gte?: number; lte?: number } = {};
  if (b.lower) out.gte = b.lower.exclusive ? Math.floor(b.lower.value) + 1 : Math.ceil(b.lower.value);
  if (b.upper) out.lte = b.upper.exclusive ? Math.ceil(b.upper.value) - 1 : Math.floor(b.upper.value);
  return out;
}

function _count(value: JsonValue | undefined): bigint | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? BigInt(value) : undefined;
}

/** `type: string` keywords → StringRules. */
export function stringRules(schema: JsonObject): ScalarRules {
  const r: Record<string, unknown> = {};
  if (schema.minLength !== undefined) r.minLen = _count(schema.minLength);
  if (schema.maxLength !== undefined) r.maxLen = _count(schema.maxLength);
  if (typeof schema.pattern === 'string') r.pattern = schema.pattern;
  if (typeof schema.const === 'string') r.const = schema.const;
  if (schema.format !== undefined) {
    const rule = typeof schema.format === 'string' ? FORMAT_RULES[schema.format] : undefined;
    if (rule === undefined)
      return {
        ok: false,
        keyword: 'format',
        reason: `format ${JSON.stringify(schema.format)} has no protovalidate string rule (expected one of ${Object.keys(FORMAT_RULES).join(', ')})`,
      };
    r.wellKnown = { case: rule, value: true };
  }
  return { ok: true, rules: { case: 'string', value: r as never } };
}

/** `type: number` keywords → DoubleRules. */
export function doubleRules(schema: JsonObject): ScalarRules {
  const b = boundsOf(schema);
  const r: Record<string, unknown> = {};
  if (b.lower) r.greaterThan = { case: b.lower.exclusive ? 'gt' : 'gte', value: b.lower.value };
  if (b.upper) r.lessThan = { case: b.upper.exclusive ? 'lt' : 'lte', value: b.upper.value };
  if (typeof schema.const === 'number') r.const = schema.const;
  if (Array.isArray(schema.enum)) r.in = schema.enum;
  return { ok: true, rules: { case: 'double', value: r as never } };
}

/** Whether integer bounds fit int32 (then the field is int32, else int64). */
export function fitsInt32(b: { gte?: number; lte?: number }): boolean {
  return b.gte !== undefined && b.lte !== undefined && b.gte >= INT32_MIN && b.lte <= INT32_MAX;
}

/** `type: integer` keywords → Int32Rules or Int64Rules. */
export function integerRules(schema: JsonObject, int32: boolean): ScalarRules {
  const b = integerBounds(boundsOf(schema));
  const num = (n: number) => (int32 ? n : BigInt(n));
  for (const [k, v] of Object.entries(b))
    if (!int32 && (BigInt(v) < INT64_MIN || BigInt(v) > INT64_MAX))
      return { ok: false, keyword: k === 'gte' ? 'minimum' : 'maximum', reason: 'bound outside int64' };
  const r: Record<string, unknown> = {};
  if (b.gte !== undefined) r.greaterThan = { case: 'gte', value: num(b.gte) };
  if (b.lte !== undefined) r.lessThan = { case: 'lte', value: num(b.lte) };
  if (typeof schema.const === 'number') r.const = num(schema.const);
  if (Array.isArray(schema.enum)) r.in = (schema.enum as number[]).map(num);
  return { ok: true, rules: { case: int32 ? 'int32' : 'int64', value: r as never } };
}

/** `type: boolean` keywords → BoolRules. */
export function boolRules(schema: JsonObject): ScalarRules {
  const only = typeof schema.const === 'boolean' ? schema.const : _singleBoolean(schema.enum);
  return { ok: true, rules: { case: 'bool', value: (only === undefined ? {} : { const: only }) as never } };
}

function _singleBoolean(values: JsonValue | undefined): boolean | undefined {
  if (!Array.isArray(values)) return undefined;
  const set = new Set(values);
  return set.size === 1 && typeof values[0] === 'boolean' ? values[0] : undefined;
}

/** Wraps a scalar's rules (and the `required` rule) as FieldRules; undefined when there are none. */
export function fieldRules(type: FieldRules['type'] | undefined, required: boolean): FieldRules | undefined {
  const empty = type === undefined || Object.keys(type.value ?? {}).length === 0;
  if (empty && !required) return undefined;
  // `required` is a proto2 optional: written only when true, so an unset rule stays unset
  return create(FieldRulesSchema, {
    ...(required ? { required } : {}),
    type: empty ? { case: undefined } : type,
  });
}

/** Whether a proto2 `optional` rule is set (an unset one reads as its zero value). */
function _has(schema: DescMessage, message: Message, name: string): boolean {
  const field = schema.fields.find((f) => f.localName === name);
  return field !== undefined && isFieldSet(message as never, field);
}

/** Number from an int64 rule (bigint) or a double one. */
function _n(v: number | bigint): number {
  return Number(v);
}

/** Scalar FieldRules → the JSON Schema keywords they stand for. */
export function keywordsOfRules(type: FieldRules['type']): JsonObject {
  const out: JsonObject = {};
  switch (type.case) {
    case 'string': {
      const s = type.value;
      const has = (name: string) => _has(StringRulesSchema, s, name);
      if (has('minLen')) out.minLength = _n(s.minLen);
      if (has('maxLen')) out.maxLength = _n(s.maxLen);
      if (has('pattern')) out.pattern = s.pattern;
      if (has('const')) out.const = s.const;
      if (s.wellKnown.case !== undefined) out.format = RULE_FORMATS[s.wellKnown.case] ?? s.wellKnown.case;
      return out;
    }
    case 'double':
    case 'int32':
    case 'int64': {
      const d = type.value;
      if (d.greaterThan.case === 'gte') out.minimum = _n(d.greaterThan.value);
      if (d.greaterThan.case === 'gt') out.exclusiveMinimum = _n(d.greaterThan.value);
      if (d.lessThan.case === 'lte') out.maximum = _n(d.lessThan.value);
      if (d.lessThan.case === 'lt') out.exclusiveMaximum = _n(d.lessThan.value);
      const schema = { double: DoubleRulesSchema, int32: Int32RulesSchema, int64: Int64RulesSchema }[
        type.case
      ];
      if (_has(schema, d, 'const')) out.const = _n(d.const);
      if (d.in.length > 0) out.enum = d.in.map(_n);
      return out;
    }
    case 'bool':
      if (_has(BoolRulesSchema, type.value, 'const')) out.const = type.value.const;
      return out;
    default:
      return out;
  }
}
