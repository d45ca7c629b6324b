/**
 * Payloads built from a contract's JSON Schema, for the native profile (docs/conformance.md,
 * "Native endpoints"): one the schema accepts, to call a tool the suite knows nothing else about,
 * and one it refuses, to see the endpoint answer `SCHEMA_VIOLATION`. A value the schema offers
 * (`examples`, `const`, `default`, `enum`) is taken first; otherwise the least value of the type
 * that meets its bounds. A schema the suite cannot satisfy for sure (a `pattern`, `$ref`,
 * `allOf`, `not`) without an example says so instead of guessing.
 * @module
 */

/** A value, or why none could be built. */
export type Sample = { ok: true; value: unknown } | { ok: false; reason: string };

const MAX_DEPTH = 8;
const FORMATS: Record<string, string> = {
  'date-time': '1970-01-01T00:00:00Z',
  date: '1970-01-01',
  time: '00:00:00Z',
  email: 'conformance@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
};

function _record(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value `schema` accepts: its own example when it has one, else the least value of its type. */
export function samplePayload(schema: unknown, at = 'payload', depth = 0): Sample {
  if (schema === true || (_record(schema) && Object.keys(schema).length === 0))
    return { ok: true, value: {} };
  if (!_record(schema)) return { ok: false, reason: `${at}: expected a JSON Schema object` };
  if (depth > MAX_DEPTH) return { ok: false, reason: `${at}: nested deeper than ${MAX_DEPTH} levels` };
  if (Array.isArray(schema.examples) && schema.examples.length > 0)
    return { ok: true, value: schema.examples[0] };
  if ('const' in schema) return { ok: true, value: schema.const };
  if ('default' in schema) return { ok: true, value: schema.default };
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return { ok: true, value: schema.enum[0] };
  for (const word of ['$ref', 'allOf', 'not', 'if']) {
    if (word in schema) return { ok: false, reason: `${at}: uses ${word}; give it "examples"` };
  }
  for (const word of ['anyOf', 'oneOf'] as const) {
    const branches = schema[word];
    if (!Array.isArray(branches)) continue;
    // The first branch it can build a value for. A value two oneOf branches both accept is
    // refused by the schema: the endpoint's SCHEMA_VIOLATION says so, and `examples` fixes it.
    for (const [i, branch] of branches.entries()) {
      const sample = samplePayload(branch, `${at}.${word}[${i}]`, depth + 1);
      if (sample.ok) return sample;
    }
    return { ok: false, reason: `${at}: no branch of ${word} could be sampled` };
  }
  const types = Array.isArray(schema.type)
    ? schema.type
    : [schema.type ?? ('properties' in schema ? 'object' : undefined)];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'object':
      return _object(schema, at, depth);
    case 'string':
      return _string(schema, at);
    case 'integer':
    case 'number':
      return _number(schema, type, at);
    case 'boolean':
      return { ok: true, value: true };
    case 'null':
      return { ok: true, value: null };
    case 'array': {
      const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const items: unknown[] = [];
      for (let i = 0; i < count; i++) {
        const item = samplePayload(schema.items ?? {}, `${at}[${i}]`, depth + 1);
        if (!item.ok) return item;
        items.push(item.value);
      }
      return { ok: true, value: items };
    }
    default:
      return { ok: false, reason: `${at}: no "type" the suite can sample (${JSON.stringify(schema.type)})` };
  }
}

function _object(schema: Record<string, unknown>, at: string, depth: number): Sample {
  const properties = _record(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [];
  const value: Record<string, unknown> = {};
  for (const name of required) {
    const sample = samplePayload(properties[name] ?? {}, `${at}.${name}`, depth + 1);
    if (!sample.ok) return sample;
    value[name] = sample.value;
  }
  return { ok: true, value };
}

function _string(schema: Record<string, unknown>, at: string): Sample {
  if (typeof schema.pattern === 'string')
    return { ok: false, reason: `${at}: has a pattern; give it "examples"` };
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  const base =
    typeof schema.format === 'string' && FORMATS[schema.format] ? FORMATS[schema.format]! : 'conformance';
  const value = base.length < min ? base.padEnd(min, 'x') : base;
  if (value.length > max) {
    if (typeof schema.format === 'string')
      return { ok: false, reason: `${at}: format ${schema.format} with maxLength ${max}` };
    return { ok: true, value: value.slice(0, Math.max(min, max)) };
  }
  return { ok: true, value };
}

function _number(schema: Record<string, unknown>, type: 'integer' | 'number', at: string): Sample {
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  let value =
    num(schema.minimum) ??
    (num(schema.exclusiveMinimum) !== undefined ? num(schema.exclusiveMinimum)! + 1 : 0);
  if (type === 'integer') value = Math.ceil(value);
  const max =
    num(schema.maximum) ??
    (num(schema.exclusiveMaximum) !== undefined ? num(schema.exclusiveMaximum)! - 1 : undefined);
  if (max !== undefined && value > max) return { ok: false, reason: `${at}: no ${type} between its bounds` };
  const step = num(schema.multipleOf);
  if (step !== undefined && value % step !== 0)
    return { ok: false, reason: `${at}: multipleOf; give it "examples"` };
  return { ok: true, value };
}

/**
 * A payload `schema` refuses, and how: a required property left out, else a property of the wrong
 * type, else a property the schema forbids; `undefined` when the schema accepts any object.
 */
export function refusedPayload(
  schema: unknown,
  valid: unknown,
): { value: Record<string, unknown>; how: string } | undefined {
  if (!_record(schema) || !_record(valid)) return undefined;
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [];
  if (required.length > 0) {
    const { [required[0]!]: _left, ...rest } = valid;
    return { value: rest, how: `the required property "${required[0]}" left out` };
  }
  const properties = _record(schema.properties) ? schema.properties : {};
  for (const [name, property] of Object.entries(properties)) {
    if (!_record(property) || typeof property.type !== 'string') continue;
    const wrong = property.type === 'string' ? 7 : 'not-a-' + property.type;
    return { value: { ...valid, [name]: wrong }, how: `"${name}" of the wrong type` };
  }
  if (schema.additionalProperties === false) {
    return { value: { ...valid, conformance_unknown_property: 1 }, how: 'a property the schema forbids' };
  }
  return undefined;
}
