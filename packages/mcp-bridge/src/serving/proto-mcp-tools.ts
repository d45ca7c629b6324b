/**
 * A face tool as proto-mcp shows it (docs/architecture.md, "proto-mcp on the stdio face"): its input schema translated to proto3
 * by `@xprotocol/translate/proto` and sent inline as a `FileDescriptorSet`, and the arguments of a
 * call read back from the `google.protobuf.Any` the client packed.
 * @module
 */
import { create, createFileRegistry, type DescMessage, fromBinary, toJson } from '@bufbuild/protobuf';
import {
  type Any,
  type FileDescriptorProto,
  type FileDescriptorSet,
  FileDescriptorSetSchema,
  file_google_protobuf_descriptor,
  file_google_protobuf_struct,
  StructSchema,
} from '@bufbuild/protobuf/wkt';
import { file_buf_validate_validate } from '@bufbuild/protovalidate/gen/buf/validate/validate_pb.js';
import { decodeArguments, jsonOptionsFile, jsonSchemaToProto } from '@xprotocol/translate/proto';

/** The `type_url` prefix of a packed message. */
const TYPE_URL_PREFIX = 'type.googleapis.com/';

/** Arguments packed as this type are the tool's JSON arguments as they are (any tool takes them). */
export const STRUCT_TYPE_URL = `${TYPE_URL_PREFIX}google.protobuf.Struct`;

const WELL_KNOWN = new Map<string, unknown>([
  ['google/protobuf/struct.proto', file_google_protobuf_struct],
  ['google/protobuf/descriptor.proto', file_google_protobuf_descriptor],
  ['buf/validate/validate.proto', file_buf_validate_validate],
]);
const OPTIONS = createFileRegistry(jsonOptionsFile, (name) => WELL_KNOWN.get(name) as never);

/** A tool's protobuf form, or why it has none. */
export type _ProtoTool =
  | { ok: true; typeUrl: string; desc: DescMessage; schema: FileDescriptorSet }
  | { ok: false; reason: string };

/**
 * The protobuf form of a tool's input schema: the descriptor set a client needs (the tool's file
 * and `xprotocol/mcp/v1/json.proto`; the `google/protobuf` and `buf/validate` files every
 * protobuf runtime and protovalidate ship are named, not sent) and the message its arguments are.
 */
export function _protoToolOf(name: string, inputSchema: unknown): _ProtoTool {
  const translated = jsonSchemaToProto(name, inputSchema, { role: 'Input' });
  if (!translated.ok) {
    const first = translated.refusals[0];
    return { ok: false, reason: first ? `${first.pointer}: ${first.reason}` : 'refused' };
  }
  const file: FileDescriptorProto = translated.file;
  const registry = createFileRegistry(file, (n) =>
    n === jsonOptionsFile.name ? OPTIONS.getFile(n) : (WELL_KNOWN.get(n) as never),
  );
  const fullName = `${file.package}.${translated.messageName}`;
  const desc = registry.getMessage(fullName);
  if (desc === undefined) return { ok: false, reason: `the translation has no message ${fullName}` };
  return {
    ok: true,
    typeUrl: `${TYPE_URL_PREFIX}${fullName}`,
    desc,
    schema: create(FileDescriptorSetSchema, { file: [jsonOptionsFile, file] }),
  };
}

/**
 * The JSON arguments in `packed`: a `google.protobuf.Struct` as it is, or the tool's own message
 * decoded by its descriptor. Throws, saying what was expected, for any other type.
 */
export function _argumentsOf(tool: _ProtoTool | undefined, packed: Any | undefined): Record<string, unknown> {
  if (packed === undefined) return {};
  if (packed.typeUrl === STRUCT_TYPE_URL) {
    return toJson(StructSchema, fromBinary(StructSchema, packed.value)) as Record<string, unknown>;
  }
  if (tool?.ok && packed.typeUrl === tool.typeUrl) {
    return decodeArguments(tool.desc, packed.value) as Record<string, unknown>;
  }
  const expected = tool?.ok ? `"${tool.typeUrl}" or "${STRUCT_TYPE_URL}"` : `"${STRUCT_TYPE_URL}"`;
  throw new Error(`arguments packed as "${packed.typeUrl}"; expected ${expected}`);
}
