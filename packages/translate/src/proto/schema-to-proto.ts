/**
 * JSON Schema → proto3 (docs/translation.md §8): one tool schema becomes one
 * `FileDescriptorProto` whose top message stands for the schema's JSON, with protovalidate rules
 * for the validation keywords and `xprotocol/mcp/v1/json.proto` options for what protobuf cannot
 * say. Deterministic: properties are numbered in sorted order, names are derived from JSON names
 * only, so the same schema (whatever its key order) gives the same bytes. What has no faithful
 * protobuf form is refused with the reason and the JSON pointer, never approximated.
 * @module
 */
import { create, setExtension } from '@bufbuild/protobuf';
import {
  type DescriptorProto,
  DescriptorProtoSchema,
  type EnumDescriptorProto,
  EnumDescriptorProtoSchema,
  EnumValueOptionsSchema,
  type FieldDescriptorProto,
  FieldDescriptorProtoSchema,
  FieldOptionsSchema,
  type FileDescriptorProto,
  FileDescriptorProtoSchema,
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as T,
} from '@bufbuild/protobuf/wkt';
import type { FieldRules } from '@bufbuild/protovalidate/gen/buf/validate/validate_pb.js';
import {
  FieldRulesSchema,
  field as fieldRulesExtension,
} from '@bufbuild/protovalidate/gen/buf/validate/validate_pb.js';
import { _pointerToken } from '../_json-util.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json.js';
import { commentOf, sourceCodeInfoOf } from './comments.js';
import { JSON_OPTIONS_FILE, setJsonFieldFacts, setJsonValue } from './json-options.js';
import { fieldNameOf, NameScope, pascalCaseOf, upperSnakeOf } from './proto-names.js';
import { protoTextWithSpans } from './proto-text.js';
import { STRUCT_FILE, WELL_KNOWN } from './proto-types.js';
import {
  boolRules,
  boundsOf,
  doubleRules,
  fieldRules,
  fitsInt32,
  integerBounds,
  integerRules,
  type ScalarRules,
  stringRules,
} from './scalar-rules.js';
import {
  isDropped,
  isUnion,
  jsonTypeOf,
  nonNullIndex,
  nullableOf,
  patternChecked,
  trivialKeys,
  typeOf,
  untranslatableKeyword,
} from './schema-keywords.js';
import { type ProtoRefusal, type Scope, type Shape, type ShapeBuilder, Walk } from './walk.js';
import { listWrapperShape, unionShape } from './wrappers.js';

export type { ProtoRefusal } from './walk.js';

/** The steps the wrapper messages are built from. */
const BUILD: ShapeBuilder = {
  shape: (walk, scope, schema, pointer, hint) => _shape(walk, scope, schema, pointer, hint),
  field: (walk, scope, shape, name, jsonName, number) =>
    _fieldOf(shape, scope, name, jsonName, number, false, walk, true),
};

/** Options of {@link jsonSchemaToProto}. */
export interface JsonSchemaToProtoOptions {
  /** Protobuf package of the file; default `xprotocol.mcp.tools`. */
  readonly package?: string;
  /** Suffix of the top message's name (`ReadFile` + `Input`); default `Input`. */
  readonly role?: 'Input' | 'Output';
}

/** The translation of one schema: the descriptor and its `.proto` text, or the refusals. */
export type ProtoTranslation =
  | { ok: true; file: FileDescriptorProto; protoText: string; messageName: string; refusals: [] }
  | { ok: false; refusals: ProtoRefusal[] };

/**
 * Translates one tool schema (an `inputSchema` or `outputSchema`, a JSON object schema) to proto3.
 * The top message is `PascalCase(toolName) + role`; see docs/translation.md §8, for the
 * mapping. Deterministic: equal schemas give byte-identical descriptors and text.
 * @example
 * const r = jsonSchemaToProto('read_file', { type: 'object', properties: { path: { type: 'string' } } });
 * if (r.ok) r.protoText; // 'syntax = "proto3";\n…message ReadFileInput {…'
 */
export function jsonSchemaToProto(
  toolName: string,
  schema: unknown,
  options: JsonSchemaToProtoOptions = {},
): ProtoTranslation {
  const pkg = options.package ?? 'xprotocol.mcp.tools';
  const walk = new Walk();
  const messageName = pascalCaseOf(toolName) + (options.role ?? 'Input');
  if (!isJsonObject(schema) || typeOf(schema) !== 'object')
    return {
      ok: false,
      refusals: [{ pointer: '/', reason: 'a tool schema must be a JSON object schema (type "object")' }],
    };
  if (!_keywordsTranslatable(walk, schema, '')) return { ok: false, refusals: walk.refusals };
  const top = _message(walk, schema, '', messageName, `.${pkg}.${messageName}`);
  if (top === undefined || walk.refusals.length > 0) return { ok: false, refusals: walk.refusals };
  const dependency = [...walk.imports].sort();
  const file = create(FileDescriptorProtoSchema, {
    name: `${pkg.replaceAll('.', '/')}/${fieldNameOf(toolName).toLowerCase()}_${(options.role ?? 'Input').toLowerCase()}.proto`,
    package: pkg,
    dependency,
    messageType: [top],
    syntax: 'proto3',
  });
  const topComment = commentOf(schema);
  if (topComment !== undefined) walk.comments.set(top, topComment);
  file.sourceCodeInfo = sourceCodeInfoOf(file, walk.comments);
  const { text, spans } = protoTextWithSpans(file);
  for (const l of file.sourceCodeInfo?.location ?? []) l.span = spans.get(l.path.join(',')) ?? [];
  return { ok: true, file, protoText: text, messageName, refusals: [] };
}

/** A JSON object schema → a message named `name` (its nested types inside it). */
function _message(
  walk: Walk,
  schema: JsonObject,
  pointer: string,
  name: string,
  fullName: string,
): DescriptorProto | undefined {
  const message = create(DescriptorProtoSchema, { name });
  const scope: Scope = { fullName, message, names: new NameScope() };
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [],
  );
  for (const r of required)
    if (!(r in properties))
      walk.refuse(
        `${pointer}/required`,
        `"${r}" is required but no property declares it: a protobuf field cannot require an undeclared member`,
      );
  const keys = Object.keys(properties).sort();
  const fieldNames = keys.map((k) => scope.names.unique(fieldNameOf(k)));
  keys.forEach((key, i) => {
    const sub = properties[key] as JsonValue;
    const at = `${pointer}/properties/${_pointerToken(key)}`;
    const field = _field(walk, scope, sub, at, key, fieldNames[i]!, i + 1, required.has(key));
    if (field) message.field.push(field);
  });
  const rest = _restField(walk, scope, schema, pointer, keys.length + 1);
  if (rest) message.field.push(rest);
  if (schema.propertyNames !== undefined && !rest && !trivialKeys(schema.propertyNames))
    walk.refuse(
      `${pointer}/propertyNames`,
      'propertyNames on an object with no other members allowed has no protobuf form',
    );
  return message;
}

/** `additionalProperties` other than false → a map field holding the undeclared members. */
function _restField(walk: Walk, scope: Scope, schema: JsonObject, pointer: string, number: number) {
  const extra = schema.additionalProperties;
  if (extra === false) return undefined;
  const valueSchema = extra === undefined || extra === true ? {} : extra;
  const at = `${pointer}/additionalProperties`;
  let value = _shape(walk, scope, valueSchema, at, 'additional');
  if (value === undefined) return undefined;
  if (value.kind === 'repeated' || value.kind === 'map')
    value = listWrapperShape(BUILD, walk, scope, value, 'additional');
  const keyRules = _keyRules(walk, schema.propertyNames, `${pointer}/propertyNames`);
  const name = scope.names.unique('additional_properties');
  const f = _fieldOf({ kind: 'map', value, keyRules }, scope, name, name, number, false, walk);
  setJsonFieldFacts(f.options!, { rest: true });
  walk.imports.add(JSON_OPTIONS_FILE);
  return f;
}

function _keyRules(
  walk: Walk,
  names: JsonValue | undefined,
  pointer: string,
): FieldRules['type'] | undefined {
  if (names === undefined || trivialKeys(names)) return undefined;
  if (!isJsonObject(names)) return walk.refuse(pointer, 'propertyNames must be a schema');
  const extra = Object.keys(names).find(
    (k) => !isDropped(k) && !['type', 'minLength', 'maxLength', 'pattern', 'format'].includes(k),
  );
  if (extra !== undefined)
    return walk.refuse(
      `${pointer}/${extra}`,
      `"${extra}" on propertyNames has no protovalidate map-key rule`,
    );
  const r = patternChecked(names) ?? stringRules(names);
  if (!r.ok) return walk.refuse(`${pointer}/${r.keyword}`, r.reason);
  return r.rules;
}

/** One property → one field (presence, rules, json_name and options). */
function _field(
  walk: Walk,
  scope: Scope,
  schema: JsonValue,
  pointer: string,
  jsonName: string,
  name: string,
  number: number,
  required: boolean,
): FieldDescriptorProto | undefined {
  // optional and nullable: protobuf reads JSON null as absent, and absent is valid too; a required
  // one must keep null apart from missing, so it becomes a union with a NullValue member
  const nullable = required ? undefined : nullableOf(schema);
  const inner = nullable ?? schema;
  const shape = _shape(
    walk,
    scope,
    inner,
    nullable !== undefined && isJsonObject(schema) && Array.isArray(schema.anyOf ?? schema.oneOf)
      ? `${pointer}/${schema.anyOf ? 'anyOf' : 'oneOf'}/${nonNullIndex(schema)}`
      : pointer,
    jsonName,
  );
  if (shape === undefined) return undefined;
  const f = _fieldOf(shape, scope, name, jsonName, number, required, walk);
  const comment = commentOf(schema);
  if (comment !== undefined) walk.comments.set(f, comment);
  const facts = {
    nullable: nullable !== undefined,
    present: required && (shape.kind === 'repeated' || shape.kind === 'map'),
  };
  setJsonFieldFacts(f.options!, facts);
  if (facts.nullable || facts.present) walk.imports.add(JSON_OPTIONS_FILE);
  return f;
}

/** Builds the FieldDescriptorProto of a shape: label, type, presence, rules. */
function _fieldOf(
  shape: Shape,
  scope: Scope,
  name: string,
  jsonName: string,
  number: number,
  required: boolean,
  walk: Walk,
  member = false,
): FieldDescriptorProto {
  const f = create(FieldDescriptorProtoSchema, {
    name,
    number,
    jsonName,
    label: Label.OPTIONAL,
    options: create(FieldOptionsSchema),
  });
  let rules: FieldRules['type'] | undefined;
  if (shape.kind === 'repeated') {
    f.label = Label.REPEATED;
    _typeInto(f, shape.item);
    const items = _itemRules(shape.item);
    rules = { case: 'repeated', value: { ...shape.rules, ...(items ? { items } : {}) } as never };
  } else if (shape.kind === 'map') {
    f.label = Label.REPEATED;
    f.type = T.MESSAGE;
    const entryName = scope.names.unique(`${pascalCaseOf(name)}Entry`, '');
    scope.message.nestedType.push(_mapEntry(entryName, shape.value));
    f.typeName = `${scope.fullName}.${entryName}`;
    const values = _itemRules(shape.value);
    const keys = shape.keyRules ? create(FieldRulesSchema, { type: shape.keyRules }) : undefined;
    rules = { case: 'map', value: { ...(keys ? { keys } : {}), ...(values ? { values } : {}) } as never };
  } else {
    _typeInto(f, shape);
    // a oneof member has presence already; any other singular scalar gets it from `optional`
    if (!member && (shape.kind === 'scalar' || shape.kind === 'enum')) {
      f.proto3Optional = true;
      f.oneofIndex = scope.message.oneofDecl.length;
      scope.message.oneofDecl.push({
        $typeName: 'google.protobuf.OneofDescriptorProto',
        name: `_${name}`,
      } as never);
    }
    rules = shape.kind === 'scalar' ? shape.rules : _isJsonEnum(shape) ? _enumRules() : undefined;
  }
  const presenceRequired = required && shape.kind !== 'repeated' && shape.kind !== 'map';
  const all = fieldRules(rules, presenceRequired);
  if (all) {
    setExtension(f.options!, fieldRulesExtension, all);
    walk.imports.add('buf/validate/validate.proto');
  }
  return f;
}

/** The rules every element of a repeated field (or map value) must meet. */
function _itemRules(shape: Shape): FieldRules | undefined {
  if (shape.kind === 'scalar') return fieldRules(shape.rules, false);
  if (_isJsonEnum(shape)) return fieldRules(_enumRules(), false);
  return undefined;
}

/** A string enum of the schema (not the NullValue of a union's null member). */
function _isJsonEnum(shape: Shape): boolean {
  return shape.kind === 'enum' && shape.typeName !== `.${WELL_KNOWN.nullValue}`;
}

/** A proto enum field must hold one of the JSON values: defined, and not the zero `_UNSPECIFIED`. */
function _enumRules(): FieldRules['type'] {
  return { case: 'enum', value: { definedOnly: true, notIn: [0] } as never };
}

function _typeInto(f: FieldDescriptorProto, shape: Shape): void {
  if (shape.kind === 'scalar') f.type = shape.type;
  else if (shape.kind === 'enum') {
    f.type = T.ENUM;
    f.typeName = shape.typeName;
  } else if (shape.kind === 'message') {
    f.type = T.MESSAGE;
    f.typeName = shape.typeName;
  }
}

function _mapEntry(name: string, value: Shape): DescriptorProto {
  const valueField = create(FieldDescriptorProtoSchema, {
    name: 'value',
    number: 2,
    jsonName: 'value',
    label: Label.OPTIONAL,
  });
  _typeInto(valueField, value);
  return create(DescriptorProtoSchema, {
    name,
    field: [{ name: 'key', number: 1, jsonName: 'key', label: Label.OPTIONAL, type: T.STRING }, valueField],
    options: { mapEntry: true },
  });
}

/** Refuses (false) a schema with a keyword that has no protobuf form. */
function _keywordsTranslatable(walk: Walk, schema: JsonObject, pointer: string): boolean {
  const bad = untranslatableKeyword(schema, pointer);
  if (bad !== undefined) walk.refuse(bad.pointer, bad.reason);
  return bad === undefined;
}

/** What one (non-null) JSON schema becomes; refuses (undefined) what has no faithful form. */
function _shape(
  walk: Walk,
  scope: Scope,
  schema: JsonValue,
  pointer: string,
  hint: string,
): Shape | undefined {
  if (schema === true) return _wkt(walk, 'Value');
  if (!isJsonObject(schema))
    return walk.refuse(pointer, 'a schema of false accepts nothing; it has no protobuf form');
  if (!_keywordsTranslatable(walk, schema, pointer)) return undefined;
  if (isUnion(schema)) return unionShape(BUILD, walk, scope, schema, pointer, hint);
  const type = typeOf(schema);
  if (type === undefined) {
    const validation = Object.keys(schema).find((k) => !isDropped(k));
    if (validation !== undefined)
      return walk.refuse(
        `${pointer}/${validation}`,
        `"${validation}" on a schema with no type (or a mixed-type enum) has no protobuf form`,
      );
    return _wkt(walk, 'Value');
  }
  const enumValues = Array.isArray(schema.enum) ? schema.enum : undefined;
  if (
    enumValues !== undefined &&
    !enumValues.every((v) => jsonTypeOf(v) === type || (type === 'number' && jsonTypeOf(v) === 'integer'))
  )
    return walk.refuse(`${pointer}/enum`, `enum values must all be of type ${type}`);
  const pat = patternChecked(schema);
  if (pat) return walk.refuse(`${pointer}/${pat.keyword}`, pat.reason);
  switch (type) {
    case 'string':
      if (enumValues !== undefined) return _enum(walk, scope, schema, enumValues as string[], pointer, hint);
      return _scalar(walk, T.STRING, stringRules(schema), pointer);
    case 'number':
      return _scalar(walk, T.DOUBLE, doubleRules(schema), pointer);
    case 'integer': {
      const int32 = fitsInt32(integerBounds(boundsOf(schema)));
      return _scalar(walk, int32 ? T.INT32 : T.INT64, integerRules(schema, int32), pointer);
    }
    case 'boolean':
      return _scalar(walk, T.BOOL, boolRules(schema), pointer);
    case 'object':
      return _objectShape(walk, scope, schema, pointer, hint);
    case 'array':
      return _arrayShape(walk, scope, schema, pointer, hint);
    default:
      return walk.refuse(`${pointer}/type`, `type ${JSON.stringify(type)} has no protobuf form on its own`);
  }
}

function _scalar(walk: Walk, type: T, rules: ScalarRules, pointer: string): Shape | undefined {
  if (!rules.ok) return walk.refuse(`${pointer}/${rules.keyword}`, rules.reason);
  return { kind: 'scalar', type, rules: rules.rules };
}

function _wkt(walk: Walk, name: 'Value' | 'Struct'): Shape {
  walk.imports.add(STRUCT_FILE);
  return { kind: 'message', typeName: `.${name === 'Value' ? WELL_KNOWN.value : WELL_KNOWN.struct}` };
}

/** A string enum → a nested proto enum: `X_UNSPECIFIED = 0`, then one value per JSON string. */
function _enum(
  walk: Walk,
  scope: Scope,
  schema: JsonObject,
  values: string[],
  pointer: string,
  hint: string,
): Shape | undefined {
  const extra = Object.keys(schema).find((k) => !isDropped(k) && k !== 'type' && k !== 'enum');
  if (extra !== undefined)
    return walk.refuse(
      `${pointer}/${extra}`,
      `"${extra}" beside a string enum is not translated (the enum already lists every value)`,
    );
  const unique = [...new Set(values)];
  const name = scope.names.unique(pascalCaseOf(hint), '');
  const prefix = upperSnakeOf(name);
  const valueNames = new NameScope();
  valueNames.reserve(`${prefix}_UNSPECIFIED`);
  const e: EnumDescriptorProto = create(EnumDescriptorProtoSchema, {
    name,
    value: [{ name: `${prefix}_UNSPECIFIED`, number: 0 }],
  });
  unique.forEach((json, i) => {
    const options = create(EnumValueOptionsSchema);
    setJsonValue(options, json);
    e.value.push({
      $typeName: 'google.protobuf.EnumValueDescriptorProto',
      name: valueNames.unique(`${prefix}_${upperSnakeOf(json)}`),
      number: i + 1,
      options,
    } as never);
  });
  scope.message.enumType.push(e);
  walk.imports.add(JSON_OPTIONS_FILE);
  return { kind: 'enum', typeName: `${scope.fullName}.${name}` };
}

/** An object at a field: a map (only additionalProperties), Struct (free-form) or a nested message. */
function _objectShape(
  walk: Walk,
  scope: Scope,
  schema: JsonObject,
  pointer: string,
  hint: string,
): Shape | undefined {
  const declared = isJsonObject(schema.properties) && Object.keys(schema.properties).length > 0;
  const extra = schema.additionalProperties;
  if (!declared && schema.required === undefined) {
    if (
      extra === undefined ||
      extra === true ||
      (isJsonObject(extra) && Object.keys(extra).every((k) => isDropped(k)))
    ) {
      if (schema.propertyNames === undefined || trivialKeys(schema.propertyNames))
        return _wkt(walk, 'Struct');
    }
    if (extra !== false) {
      let value = _shape(
        walk,
        scope,
        extra === undefined ? true : extra,
        `${pointer}/additionalProperties`,
        `${hint}_value`,
      );
      if (value === undefined) return undefined;
      if (value.kind === 'repeated' || value.kind === 'map')
        value = listWrapperShape(BUILD, walk, scope, value, `${hint}_value`);
      return {
        kind: 'map',
        value,
        keyRules: _keyRules(walk, schema.propertyNames, `${pointer}/propertyNames`),
      };
    }
  }
  const name = scope.names.unique(pascalCaseOf(hint), '');
  const nested = _message(walk, schema, pointer, name, `${scope.fullName}.${name}`);
  if (nested === undefined) return undefined;
  scope.message.nestedType.push(nested);
  return { kind: 'message', typeName: `${scope.fullName}.${name}` };
}

/** An array → a repeated field of its items' shape, with the count rules. */
function _arrayShape(
  walk: Walk,
  scope: Scope,
  schema: JsonObject,
  pointer: string,
  hint: string,
): Shape | undefined {
  const items = schema.items ?? true;
  if (Array.isArray(items))
    return walk.refuse(
      `${pointer}/items`,
      'a tuple (items as a list) has no protobuf form: a repeated field has one element type',
    );
  // elements that may be null reach _shape as a union, which keeps null as a NullValue member
  let item = _shape(walk, scope, items, `${pointer}/items`, `${hint}_item`);
  if (item === undefined) return undefined;
  if (item.kind === 'repeated' || item.kind === 'map')
    item = listWrapperShape(BUILD, walk, scope, item, `${hint}_item`);
  const rules: Record<string, unknown> = {};
  if (typeof schema.minItems === 'number') rules.minItems = BigInt(schema.minItems);
  if (typeof schema.maxItems === 'number') rules.maxItems = BigInt(schema.maxItems);
  if (schema.uniqueItems === true) {
    if (item.kind === 'message')
      return walk.refuse(
        `${pointer}/uniqueItems`,
        'protovalidate checks uniqueness of scalar and enum elements only',
      );
    rules.unique = true;
  }
  return { kind: 'repeated', item, rules };
}
