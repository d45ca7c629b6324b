/**
 * proto3 → JSON Schema: the JSON a message made by `jsonSchemaToProto` stands for, read from its
 * descriptor alone (field types, presence, protovalidate rules and the `xprotocol/mcp/v1/json.proto`
 * options). The way back of docs/translation.md §8: a schema that went there and back accepts
 * the same JSON instances as before.
 * @module
 */
import { getExtension, hasExtension, isFieldSet } from '@bufbuild/protobuf';
import {
  type DescriptorProto,
  type EnumDescriptorProto,
  type FieldDescriptorProto,
  type FileDescriptorProto,
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as T,
} from '@bufbuild/protobuf/wkt';
import {
  type FieldRules,
  field as fieldRulesExtension,
  RepeatedRulesSchema,
} from '@bufbuild/protovalidate/gen/buf/validate/validate_pb.js';
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonWrapper, jsonFieldFacts, jsonValueOf } from './json-options.js';
import { SCALARS, WELL_KNOWN } from './proto-types.js';
import { keywordsOfRules } from './scalar-rules.js';

/** Every message and enum of a file by full name (`.pkg.Msg.Nested`). */
interface Types {
  messages: Map<string, DescriptorProto>;
  enums: Map<string, EnumDescriptorProto>;
}

/**
 * The JSON Schema of a message in a file made by `jsonSchemaToProto` (default: its first top-level
 * message). Throws a `TypeError` naming the field when the descriptor uses a type this binding
 * never makes.
 * @example
 * const r = jsonSchemaToProto('t', { type: 'object', properties: { a: { type: 'string' } } });
 * if (r.ok) protoToJsonSchema(r.file); // { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }
 */
export function protoToJsonSchema(file: FileDescriptorProto, messageName?: string): JsonObject {
  const types: Types = { messages: new Map(), enums: new Map() };
  const prefix = file.package === '' ? '' : `.${file.package}`;
  for (const m of file.messageType) _index(m, `${prefix}.${m.name}`, types);
  const name = messageName ?? file.messageType[0]?.name;
  const top = types.messages.get(`${prefix}.${name}`);
  if (top === undefined) throw new TypeError(`message ${JSON.stringify(name)} is not in ${file.name}`);
  return _object(top, types);
}

function _index(m: DescriptorProto, fullName: string, types: Types): void {
  types.messages.set(fullName, m);
  for (const e of m.enumType) types.enums.set(`${fullName}.${e.name}`, e);
  for (const n of m.nestedType) _index(n, `${fullName}.${n.name}`, types);
}

function _rules(f: FieldDescriptorProto): FieldRules | undefined {
  return f.options && hasExtension(f.options, fieldRulesExtension)
    ? getExtension(f.options, fieldRulesExtension)
    : undefined;
}

function _object(m: DescriptorProto, types: Types): JsonObject {
  const properties: JsonObject = {};
  const required: string[] = [];
  let rest: JsonValue = false;
  for (const f of m.field) {
    const facts = jsonFieldFacts(f.options);
    if (facts.rest) {
      const map = _value(f, types) as JsonObject;
      rest = _isEmpty(map.additionalProperties) ? true : (map.additionalProperties as JsonValue);
      continue;
    }
    let s = _value(f, types);
    if (facts.nullable) s = _nullable(s);
    properties[f.jsonName] = s;
    if (facts.present || _rules(f)?.required) required.push(f.jsonName);
  }
  const out: JsonObject = { type: 'object' };
  if (Object.keys(properties).length > 0) out.properties = properties;
  if (required.length > 0) out.required = required;
  if (rest !== true) out.additionalProperties = rest;
  return out;
}

function _isEmpty(v: JsonValue | undefined): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
}

/** `X` → `X or null` in the spelling that keeps every other keyword as it was. */
function _nullable(s: JsonObject): JsonObject {
  if (typeof s.type === 'string') {
    const out: JsonObject = { ...s, type: [s.type, 'null'] };
    if (Array.isArray(s.enum)) out.enum = [...s.enum, null];
    return out;
  }
  return { anyOf: [s, { type: 'null' }] };
}

/** The schema of a field's whole JSON value (an array for repeated, an object for a map). */
function _value(f: FieldDescriptorProto, types: Types): JsonObject {
  const rules = _rules(f);
  const entry = f.type === T.MESSAGE ? types.messages.get(f.typeName) : undefined;
  if (f.label === Label.REPEATED && entry?.options?.mapEntry) {
    const valueField = entry.field[1]!;
    const mapRules = rules?.type.case === 'map' ? rules.type.value : undefined;
    const value = _single(valueField, types, mapRules?.values);
    const out: JsonObject = { type: 'object', additionalProperties: value };
    if (mapRules?.keys) out.propertyNames = { type: 'string', ...keywordsOfRules(mapRules.keys.type) };
    return out;
  }
  if (f.label === Label.REPEATED) {
    const r = rules?.type.case === 'repeated' ? rules.type.value : undefined;
    const out: JsonObject = { type: 'array', items: _single(f, types, r?.items) };
    if (r && isFieldSet(r, RepeatedRulesSchema.field.minItems)) out.minItems = Number(r.minItems);
    if (r && isFieldSet(r, RepeatedRulesSchema.field.maxItems)) out.maxItems = Number(r.maxItems);
    if (r?.unique) out.uniqueItems = true;
    return out;
  }
  return _single(f, types, rules);
}

/** The schema of one value of the field's type, with its scalar rules. */
function _single(f: FieldDescriptorProto, types: Types, rules: FieldRules | undefined): JsonObject {
  const scalar = SCALARS.get(f.type)?.json;
  if (scalar !== undefined) return { type: scalar, ...(rules ? keywordsOfRules(rules.type) : {}) };
  if (f.typeName === `.${WELL_KNOWN.value}`) return {};
  if (f.typeName === `.${WELL_KNOWN.struct}`) return { type: 'object' };
  if (f.typeName === `.${WELL_KNOWN.nullValue}`) return { type: 'null' };
  if (f.type === T.ENUM) {
    const e = types.enums.get(f.typeName);
    if (e === undefined) throw new TypeError(`field ${f.name}: enum ${f.typeName} is not in the file`);
    const values = e.value.map((v) => jsonValueOf(v.options)).filter((v) => v !== undefined);
    return { type: 'string', enum: values };
  }
  const m = f.type === T.MESSAGE ? types.messages.get(f.typeName) : undefined;
  if (m === undefined)
    throw new TypeError(`field ${f.name}: type ${f.typeName || f.type} is not one this binding makes`);
  return isJsonWrapper(m.options) ? _wrapped(m, types) : _object(m, types);
}

/** A wrapper message's JSON: one of its oneof members' values (a union), or its one field's. */
function _wrapped(m: DescriptorProto, types: Types): JsonObject {
  if (m.oneofDecl.length === 0) return _value(m.field[0]!, types);
  const branches = m.field.map((f) => _value(f, types));
  return { anyOf: branches };
}
