/**
 * Tool arguments (the JSON an MCP client sends) ↔ protobuf messages of a file made by
 * `jsonSchemaToProto`. Protobuf's own JSON mapping differs from the tool's JSON in three places the
 * binding records in `xprotocol/mcp/v1/json.proto`, and this codec applies them: enum values travel
 * as their JSON strings (not the value names), an open object's undeclared members go to and come
 * from its rest map, and a required array or map comes back as `[]`/`{}` when empty. int64 values
 * come back as JSON numbers when they are exact in a double (else as the decimal string protobuf
 * writes). A wrapper message (a union, an array of arrays) travels as the value it wraps: a union's
 * member is chosen by the JSON type of the value. Protobuf has one value for a missing and an empty repeated field: an optional array sent
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
import { isJsonWrapper, jsonFieldFacts, jsonValueOf } from './json-options.js';
import { OPEN_MESSAGES, SCALARS, WELL_KNOWN } from './proto-types.js';

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
  if (OPEN_MESSAGES.has(desc.typeName) || json === null || typeof json !== 'object' || Array.isArray(json))
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
  // null is absent to protobuf, except where a union keeps it as its NullValue member
  if (value === null && !(field.fieldKind === 'message' && isJsonWrapper(field.message.proto.options)))
    return null;
  if (field.fieldKind === 'list' && Array.isArray(value))
    return value.map((v, i) => _elementToProto(field, v, `${at}/${i}`));
  if (field.fieldKind === 'map' && value !== null && typeof value === 'object' && !Array.isArray(value))
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
  if (m === undefined) return value;
  return isJsonWrapper(m.proto.options) ? _wrapperToProto(m, value, at) : _toProtoJson(m, value, at);
}

/** A JSON value → the protobuf JSON of the wrapper message standing for it. */
function _wrapperToProto(desc: DescMessage, value: JsonValue, at: string): JsonValue {
  if (desc.oneofs.length === 0) {
    const only = desc.fields[0]!;
    return { [only.jsonName]: _fieldToProto(only, value, at) };
  }
  const type = _jsonType(value);
  // a whole number goes to the integer member when there is one, else to the number member
  const member =
    desc.fields.find((f) => _memberType(f) === type) ??
    (type === 'integer' ? desc.fields.find((f) => _memberType(f) === 'number') : undefined);
  if (member === undefined)
    throw new TypeError(
      `argument ${at || '/'}: a JSON ${type} is not one of the types it may be (${desc.fields.map(_memberType).join(', ')})`,
    );
  return { [member.jsonName]: value === null ? null : _fieldToProto(member, value, at) };
}

function _jsonType(v: JsonValue): string {
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (v === null) return 'null';
  return Array.isArray(v) ? 'array' : typeof v;
}

/** The JSON type a union member holds, read from its protobuf type. */
function _memberType(f: DescField): string {
  if (f.fieldKind === 'enum') return f.enum.typeName === WELL_KNOWN.nullValue ? 'null' : 'string';
  if (f.fieldKind === 'scalar') return SCALARS.get(f.scalar as never)?.json ?? 'string';
  if (f.fieldKind === 'message' && isJsonWrapper(f.message.proto.options))
    return f.message.fields[0]?.fieldKind === 'list' ? 'array' : 'object';
  return 'object';
}

/** The protobuf JSON of a wrapper message → the JSON value it stands for. */
function _wrapperFromProto(desc: DescMessage, json: JsonObject): JsonValue {
  if (desc.oneofs.length === 0) {
    const only = desc.fields[0]!;
    const value = json[only.jsonName];
    if (value === undefined) return only.fieldKind === 'list' ? [] : {};
    return _fieldFromProto(only, value);
  }
  const member = desc.fields.find((f) => json[f.jsonName] !== undefined);
  if (member === undefined)
    throw new TypeError(`${desc.typeName} has no member set: it stands for none of the JSON types it may be`);
  if (_memberType(member) === 'null') return null;
  return _fieldFromProto(member, json[member.jsonName]!);
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
  if (OPEN_MESSAGES.has(desc.typeName) || json === null || typeof json !== 'object' || Array.isArray(json))
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
  if (m !== undefined)
    return isJsonWrapper(m.proto.options)
      ? _wrapperFromProto(m, value as JsonObject)
      : _fromProtoJson(m, value);
  // protobuf writes 64-bit integers as strings; the tool's JSON has numbers
  if (typeof value === 'string' && field.scalar === ScalarType.INT64) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  return value;
}
