/**
 * Tool arguments (the JSON an MCP client sends) ↔ protobuf messages of a file made by
 * `jsonSchemaToProto`. Protobuf's own JSON mapping differs from the tool's JSON in three places the
 * binding records in `xprotocol/mcp/v1/json.proto`, and this codec applies them: enum values travel
 * as their JSON strings (not the value names), an open object's undeclared members go to and come
 * from its rest map, and a required array or map comes back as `[]`/`{}` when empty. int64 values
 * come back as JSON numbers when they are exact in a double (else as the decimal string protobuf
 * writes). Protobuf has one value for a missing and an empty repeated field: an optional array sent
 * empty comes back missing.
 * @module
 */
import {
  type DescEnum,
  type DescField,
  type DescMessage,
  fromBinary,
  fromJson,
  type Message,
  type JsonValue as ProtoJson,
  ScalarType,
  toBinary,
  toJson,
} from '@bufbuild/protobuf';
import type { JsonObject, JsonValue } from '../json.js';
import { jsonFieldFacts, jsonValueOf } from './json-options.js';

const OPEN_TYPES = new Set(['google.protobuf.Value', 'google.protobuf.Struct']);

/**
 * Tool arguments → a message of `desc`. Throws a `TypeError` naming the member when the arguments
 * have a member the message cannot hold, or protobuf's own error for a value of the wrong type.
 * @example
 * const bytes = toBinary(desc, argumentsToMessage(desc, { path: 'notes/a.txt' }));
 */
export function argumentsToMessage(desc: DescMessage, args: JsonValue): Message {
  return fromJson(desc, _toProtoJson(desc, args, '') as ProtoJson);
}

/** A message of `desc` → the tool arguments it stands for (the inverse of {@link argumentsToMessage}). */
export function messageToArguments(desc: DescMessage, message: Message): JsonValue {
  return _fromProtoJson(desc, toJson(desc, message as never) as JsonValue);
}

/** Tool arguments → protobuf binary. */
export function encodeArguments(desc: DescMessage, args: JsonValue): Uint8Array {
  return toBinary(desc, argumentsToMessage(desc, args) as never);
}

/** Protobuf binary → tool arguments. */
export function decodeArguments(desc: DescMessage, bytes: Uint8Array): JsonValue {
  return messageToArguments(desc, fromBinary(desc, bytes));
}

function _restField(desc: DescMessage): DescField | undefined {
  return desc.fields.find((f) => jsonFieldFacts(f.proto.options).rest);
}

function _toProtoJson(desc: DescMessage, json: JsonValue, at: string): JsonValue {
  if (OPEN_TYPES.has(desc.typeName) || json === null || typeof json !== 'object' || Array.isArray(json))
    return json;
  const rest = _restField(desc);
  const out: JsonObject = {};
  for (const f of desc.fields)
    if (jsonFieldFacts(f.proto.options).present && json[f.jsonName] === undefined)
      throw new TypeError(
        `argument member ${at}/${f.jsonName} is required (protobuf cannot tell a missing ${f.fieldKind} from an empty one, so the binding checks it here)`,
      );
  for (const [key, value] of Object.entries(json)) {
    const field = desc.fields.find((f) => f !== rest && f.jsonName === key);
    if (field !== undefined) {
      out[key] = _fieldToProto(field, value, `${at}/${key}`);
      continue;
    }
    if (rest === undefined)
      throw new TypeError(
        `argument member ${at}/${key} is not declared by ${desc.typeName}, whose schema allows no other members`,
      );
    const map = (out[rest.jsonName] ?? {}) as JsonObject;
    map[key] = _elementToProto(rest, value, `${at}/${key}`);
    out[rest.jsonName] = map;
  }
  return out;
}

function _fieldToProto(field: DescField, value: JsonValue, at: string): JsonValue {
  if (value === null) return null;
  if (field.fieldKind === 'list' && Array.isArray(value))
    return value.map((v, i) => _elementToProto(field, v, `${at}/${i}`));
  if (field.fieldKind === 'map' && typeof value === 'object' && !Array.isArray(value))
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, _elementToProto(field, v, `${at}/${k}`)]),
    );
  return _elementToProto(field, value, at);
}

/** One element: the field's value, a list element or a map value. */
function _elementToProto(field: DescField, value: JsonValue, at: string): JsonValue {
  const e = _enumOf(field);
  if (e !== undefined && typeof value === 'string') {
    const v = e.values.find((x) => jsonValueOf(x.proto.options) === value);
    if (v === undefined)
      throw new TypeError(
        `argument ${at}: ${JSON.stringify(value)} is not one of the values of ${e.typeName}`,
      );
    return v.name;
  }
  const m = _messageOf(field);
  return m === undefined ? value : _toProtoJson(m, value, at);
}

function _enumOf(field: DescField): DescEnum | undefined {
  if (field.fieldKind === 'enum') return field.enum;
  if (field.fieldKind === 'list' && field.listKind === 'enum') return field.enum;
  if (field.fieldKind === 'map' && field.mapKind === 'enum') return field.enum;
  return undefined;
}

function _messageOf(field: DescField): DescMessage | undefined {
  if (field.fieldKind === 'message') return field.message;
  if (field.fieldKind === 'list' && field.listKind === 'message') return field.message;
  if (field.fieldKind === 'map' && field.mapKind === 'message') return field.message;
  return undefined;
}

function _fromProtoJson(desc: DescMessage, json: JsonValue): JsonValue {
  if (OPEN_TYPES.has(desc.typeName) || json === null || typeof json !== 'object' || Array.isArray(json))
    return json;
  const out: JsonObject = {};
  for (const field of desc.fields) {
    const value = json[field.jsonName];
    const facts = jsonFieldFacts(field.proto.options);
    if (value === undefined) {
      if (facts.present) out[field.jsonName] = field.fieldKind === 'list' ? [] : {};
      continue;
    }
    if (facts.rest) {
      for (const [k, v] of Object.entries(value as JsonObject)) out[k] = _elementFromProto(field, v);
      continue;
    }
    out[field.jsonName] = _fieldFromProto(field, value);
  }
  return out;
}

function _fieldFromProto(field: DescField, value: JsonValue): JsonValue {
  if (field.fieldKind === 'list') return (value as JsonValue[]).map((v) => _elementFromProto(field, v));
  if (field.fieldKind === 'map')
    return Object.fromEntries(
      Object.entries(value as JsonObject).map(([k, v]) => [k, _elementFromProto(field, v)]),
    );
  return _elementFromProto(field, value);
}

function _elementFromProto(field: DescField, value: JsonValue): JsonValue {
  const e = _enumOf(field);
  if (e !== undefined && typeof value === 'string') {
    const v = e.values.find((x) => x.name === value);
    return (v && jsonValueOf(v.proto.options)) ?? value;
  }
  const m = _messageOf(field);
  if (m !== undefined) return _fromProtoJson(m, value);
  // protobuf writes 64-bit integers as strings; the tool's JSON has numbers
  if (typeof value === 'string' && field.scalar === ScalarType.INT64) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  return value;
}
