/**
 * Canonical serialization (docs/translation.md "Determinism"). Contracts are signed and compared
 * byte for byte, so the same input must always give the same bytes, whatever the key order of the
 * objects it was read from. RFC 8785 (JCS) sorts every object's keys — but the order of a schema's
 * `properties` is declaration order, which a grammar follows (it decides the order fields are
 * generated in). So the serialization here is RFC 8785 everywhere (UTF-16 key sort, ECMAScript
 * number and string forms) **except** the members of a `properties` map inside a schema, which
 * keep the object's own enumeration order. The RFC 8785 part is `@xprotocol/crypto`'s `canonicalJson`. Contracts built by this package put `properties` maps in
 * the order the tool declared them and nothing else depends on input key order.
 * @module
 */
import { canonicalJson } from '@xprotocol/crypto';
import { _ARRAY, _isSchema, _MAP, _SINGLE } from './_schema-walk.js';
import type { SchemaContract } from './contract.js';
import { TranslateError } from './errors.js';
import { isJsonObject, type JsonObject, type JsonSchema, type JsonValue } from './json.js';

/**
 * Canonical JSON of a schema: RFC 8785, except that `properties` members keep declaration order.
 * @example
 * canonicalSchemaJson({ type: 'object', properties: { b: {}, a: {} } });
 * // '{"properties":{"b":{},"a":{}},"type":"object"}'
 */
export function canonicalSchemaJson(schema: JsonSchema): string {
  return _schema(schema);
}

/** Where schemas sit inside a contract: these are serialized by {@link canonicalSchemaJson}. */
const CONTRACT_SCHEMAS: Readonly<Record<string, Readonly<Record<string, true>> | true>> = {
  payload: true,
  response: { payload: true },
  error_response: { payload: true },
  source: { outputSchema: true },
};

/**
 * The canonical bytes (as a string) of a contract: keys sorted per RFC 8785 at every level, the
 * schemas at `payload`, `response.payload`, `error_response.payload` and `source.outputSchema`
 * keeping their `properties` order. Two contracts are the same contract iff these strings are equal.
 */
export function serializeContract(contract: SchemaContract): string {
  const value = contract as unknown as JsonObject;
  const keys = Object.keys(value).sort();
  const parts: string[] = [];
  for (const key of keys) {
    const v = value[key] as JsonValue;
    if (v === undefined) continue;
    const spec = CONTRACT_SCHEMAS[key];
    let text: string;
    if (spec === true && _isSchema(v)) text = _schema(v);
    else if (spec !== undefined && spec !== true && isJsonObject(v)) {
      text = _object(v, (k, item) => (spec[k] === true && _isSchema(item) ? _schema(item) : _leaf(item)));
    } else text = _leaf(v);
    parts.push(`${_leaf(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

function _schema(schema: JsonSchema): string {
  if (typeof schema === 'boolean') return schema ? 'true' : 'false';
  return _object(schema, (keyword, value) => {
    if (Object.hasOwn(_SINGLE, keyword) && _isSchema(value)) return _schema(value);
    if (Object.hasOwn(_ARRAY, keyword) && Array.isArray(value)) {
      return `[${value.map((item) => (_isSchema(item) ? _schema(item) : _leaf(item))).join(',')}]`;
    }
    if (Object.hasOwn(_MAP, keyword) && isJsonObject(value)) {
      const names = keyword === 'properties' ? Object.keys(value) : Object.keys(value).sort();
      const members = names.map((name) => {
        const item = value[name] as JsonValue;
        return `${_leaf(name)}:${_isSchema(item) ? _schema(item) : _leaf(item)}`;
      });
      return `{${members.join(',')}}`;
    }
    return _leaf(value);
  });
}

function _object(value: JsonObject, member: (key: string, item: JsonValue) => string): string {
  const parts: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const item = value[key];
    if (item === undefined) continue;
    parts.push(`${_leaf(key)}:${member(key, item)}`);
  }
  return `{${parts.join(',')}}`;
}

function _leaf(value: JsonValue): string {
  try {
    // Schemas may hold any JSON number (an `enum` of large integers, a `maximum` of 1e30).
    return canonicalJson(value, { allowUnsafeIntegers: true });
  } catch (error) {
    throw new TranslateError(
      'INVALID_CONTRACT',
      `value cannot be serialized as JSON: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}
