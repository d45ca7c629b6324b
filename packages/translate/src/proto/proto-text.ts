/**
 * A `FileDescriptorProto` made by `jsonSchemaToProto` → its `.proto` source text. The text is for
 * people and `protoc`/`buf`; the descriptor is the authority. Written from the descriptor alone, in
 * its order, so equal descriptors give identical text.
 * @module
 */
import { getExtension, hasExtension, isFieldSet } from '@bufbuild/protobuf';
import { toText } from '@bufbuild/protobuf/txtpb';
import {
  type DescriptorProto,
  type EnumDescriptorProto,
  type FieldDescriptorProto,
  FieldDescriptorProtoSchema,
  type FileDescriptorProto,
  FieldDescriptorProto_Label as Label,
  type OneofDescriptorProto,
} from '@bufbuild/protobuf/wkt';
import {
  FieldRulesSchema,
  field as fieldRulesExtension,
  OneofRulesSchema,
  oneof as oneofRulesExtension,
} from '@bufbuild/protovalidate/gen/buf/validate/validate_pb.js';
import { isJsonWrapper, jsonFieldFacts, jsonValueOf } from './json-options.js';
import { SCALARS } from './proto-types.js';

/**
 * The `.proto` text of a file made by `jsonSchemaToProto` (proto3, one top message, nested types).
 * @example
 * protoTextOf(jsonSchemaToProto('t', { type: 'object' }).file);
 */
export function protoTextOf(file: FileDescriptorProto): string {
  const lines = ['syntax = "proto3";', '', `package ${file.package};`, ''];
  for (const dep of file.dependency) lines.push(`import "${dep}";`);
  if (file.dependency.length > 0) lines.push('');
  for (const m of file.messageType) _message(m, '', lines);
  return `${lines.join('\n')}\n`;
}

function _message(m: DescriptorProto, indent: string, lines: string[]): void {
  lines.push(`${indent}message ${m.name} {`);
  const inner = `${indent}  `;
  if (isJsonWrapper(m.options)) lines.push(`${inner}option (xprotocol.mcp.v1.json_wrapper) = true;`);
  for (const e of m.enumType) _enum(e, inner, lines);
  for (const n of m.nestedType) if (!n.options?.mapEntry) _message(n, inner, lines);
  let open: number | undefined;
  for (const f of m.field) {
    // members of a real oneof (not proto3 optional's synthetic one) are written inside it
    const group =
      isFieldSet(f, FieldDescriptorProtoSchema.field.oneofIndex) && !f.proto3Optional
        ? f.oneofIndex
        : undefined;
    if (open !== undefined && group !== open) lines.push(`${inner}}`);
    if (group !== undefined && group !== open) _oneofHead(m.oneofDecl[group]!, inner, lines);
    open = group;
    lines.push(`${group === undefined ? inner : `${inner}  `}${_field(f, m)};`);
  }
  if (open !== undefined) lines.push(`${inner}}`);
  lines.push(`${indent}}`);
}

function _oneofHead(o: OneofDescriptorProto, indent: string, lines: string[]): void {
  lines.push(`${indent}oneof ${o.name} {`);
  if (o.options && hasExtension(o.options, oneofRulesExtension)) {
    const text = toText(OneofRulesSchema, getExtension(o.options, oneofRulesExtension));
    lines.push(`${indent}  option (buf.validate.oneof) = { ${text.trim().replace(/\s*\n\s*/g, ' ')} };`);
  }
}

function _enum(e: EnumDescriptorProto, indent: string, lines: string[]): void {
  lines.push(`${indent}enum ${e.name} {`);
  for (const v of e.value) {
    const json = jsonValueOf(v.options);
    const option = json === undefined ? '' : ` [(xprotocol.mcp.v1.json_value) = ${JSON.stringify(json)}]`;
    lines.push(`${indent}  ${v.name} = ${v.number}${option};`);
  }
  lines.push(`${indent}}`);
}

function _typeName(f: FieldDescriptorProto): string {
  // the full name with its leading dot: absolute, so it cannot resolve to another type
  return SCALARS.get(f.type)?.proto ?? f.typeName;
}

function _field(f: FieldDescriptorProto, owner: DescriptorProto): string {
  const entry = owner.nestedType.find((n) => n.options?.mapEntry && f.typeName.endsWith(`.${n.name}`));
  let head: string;
  if (entry !== undefined) head = `map<string, ${_typeName(entry.field[1]!)}> ${f.name}`;
  else {
    const label = f.label === Label.REPEATED ? 'repeated ' : f.proto3Optional ? 'optional ' : '';
    head = `${label}${_typeName(f)} ${f.name}`;
  }
  const options = [`json_name = ${JSON.stringify(f.jsonName)}`];
  if (f.options && hasExtension(f.options, fieldRulesExtension)) {
    const text = toText(FieldRulesSchema, getExtension(f.options, fieldRulesExtension));
    options.push(`(buf.validate.field) = { ${text.trim().replace(/\s*\n\s*/g, ' ')} }`);
  }
  const facts = jsonFieldFacts(f.options);
  const set = Object.entries(facts)
    .filter(([, v]) => v)
    .map(([k]) => `${k}: true`);
  if (set.length > 0) options.push(`(xprotocol.mcp.v1.json) = { ${set.join(' ')} }`);
  return `${head} = ${f.number} [${options.join(', ')}]`;
}
