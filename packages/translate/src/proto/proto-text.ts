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
import { commentsByPath, paths } from './comments.js';
import { isJsonWrapper, jsonFieldFacts, jsonValueOf } from './json-options.js';
import { SCALARS } from './proto-types.js';

/**
 * The `.proto` text of a file made by `jsonSchemaToProto` (proto3, one top message, nested types,
 * the leading comments its `SourceCodeInfo` holds).
 * @example
 * protoTextOf(jsonSchemaToProto('t', { type: 'object' }).file);
 */
export function protoTextOf(file: FileDescriptorProto): string {
  return protoTextWithSpans(file).text;
}

/**
 * The `.proto` text and, for each commented message and field (by path, `4,0,2,1`), its span in
 * that text as `SourceCodeInfo` spells it (zero-based line and column).
 */
export function protoTextWithSpans(file: FileDescriptorProto): {
  text: string;
  spans: Map<string, number[]>;
} {
  const out: Writer = {
    lines: ['syntax = "proto3";', '', `package ${file.package};`, ''],
    comments: commentsByPath(file),
    spans: new Map(),
  };
  for (const dep of file.dependency) out.lines.push(`import "${dep}";`);
  if (file.dependency.length > 0) out.lines.push('');
  for (const [i, m] of file.messageType.entries()) _message(m, '', out, paths.top(i));
  return { text: `${out.lines.join('\n')}\n`, spans: out.spans };
}

interface Writer {
  readonly lines: string[];
  readonly comments: ReadonlyMap<string, string>;
  readonly spans: Map<string, number[]>;
}

/** Writes the leading comment of `path`, if any; true when there was one (its span is then kept). */
function _comment(out: Writer, path: number[], indent: string): boolean {
  const c = out.comments.get(path.join(','));
  if (c === undefined) return false;
  for (const line of c.replace(/\n$/, '').split('\n')) out.lines.push(`${indent}//${line}`);
  return true;
}

function _message(m: DescriptorProto, indent: string, out: Writer, path: number[]): void {
  const commented = _comment(out, path, indent);
  const start = out.lines.length;
  const lines = out.lines;
  lines.push(`${indent}message ${m.name} {`);
  const inner = `${indent}  `;
  if (isJsonWrapper(m.options)) lines.push(`${inner}option (xprotocol.mcp.v1.json_wrapper) = true;`);
  for (const e of m.enumType) _enum(e, inner, lines);
  for (const [i, n] of m.nestedType.entries())
    if (!n.options?.mapEntry) _message(n, inner, out, paths.nested(path, i));
  let open: number | undefined;
  m.field.forEach((f, i) => {
    // members of a real oneof (not proto3 optional's synthetic one) are written inside it
    const group =
      isFieldSet(f, FieldDescriptorProtoSchema.field.oneofIndex) && !f.proto3Optional
        ? f.oneofIndex
        : undefined;
    if (open !== undefined && group !== open) lines.push(`${inner}}`);
    if (group !== undefined && group !== open) _oneofHead(m.oneofDecl[group]!, inner, lines);
    open = group;
    const at = group === undefined ? inner : `${inner}  `;
    const fieldPath = paths.field(path, i);
    const fieldCommented = _comment(out, fieldPath, at);
    lines.push(`${at}${_field(f, m)};`);
    if (fieldCommented)
      out.spans.set(fieldPath.join(','), [lines.length - 1, at.length, lines.at(-1)!.length]);
  });
  if (open !== undefined) lines.push(`${inner}}`);
  lines.push(`${indent}}`);
  if (commented) out.spans.set(path.join(','), [start, indent.length, lines.length - 1, indent.length + 1]);
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
