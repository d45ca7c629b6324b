/**
 * A face tool as proto-mcp shows it (docs/architecture.md, "proto-mcp on the stdio face"): its input schema translated to proto3
 * by `@xprotocol/translate/proto` and sent inline as a `FileDescriptorSet`, and the arguments of a
 * call read back from the `google.protobuf.Any` the client packed.
 * @module
 */
import {
  create,
  createFileRegistry,
  type DescMessage,
  fromBinary,
  fromJson,
  toJson,
} from '@bufbuild/protobuf';
import {
  type Any,
  AnySchema,
  anyPack,
  type FileDescriptorProto,
  type FileDescriptorSet,
  FileDescriptorSetSchema,
  file_google_protobuf_descriptor,
  file_google_protobuf_struct,
  StructSchema,
} from '@bufbuild/protobuf/wkt';
import { file_buf_validate_validate } from '@bufbuild/protovalidate/gen/buf/validate/validate_pb.js';
import {
  decodeArguments,
  encodeArguments,
  jsonOptionsFile,
  jsonSchemaToProto,
} from '@xprotocol/translate/proto';

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

/** The message a tool's `structuredContent` is sent as, when its output schema translates. */
export interface _ProtoOutput {
  typeUrl: string;
  desc: DescMessage;
}

/** A tool's protobuf form, or why it has none. */
export type _ProtoTool =
  | {
      ok: true;
      typeUrl: string;
      desc: DescMessage;
      schema: FileDescriptorSet;
      output: _ProtoOutput | undefined;
    }
  | { ok: false; reason: string };

/** One schema's file and top message, or why it has none. */
function _translated(
  name: string,
  schema: unknown,
  role: 'Input' | 'Output',
):
  | { ok: true; file: FileDescriptorProto; typeUrl: string; desc: DescMessage }
  | { ok: false; reason: string } {
  const translated = jsonSchemaToProto(name, schema, { role });
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
  return { ok: true, file, typeUrl: `${TYPE_URL_PREFIX}${fullName}`, desc };
}

/**
 * The protobuf form of a tool: the descriptor set a client needs (`xprotocol/mcp/v1/json.proto`,
 * the input file, and the output file when the output schema translates; the `google/protobuf`
 * and `buf/validate` files every protobuf runtime and protovalidate ship are named, not sent), the
 * message its arguments are, and the one its `structuredContent` is sent as.
 */
export function _protoToolOf(name: string, inputSchema: unknown, outputSchema?: unknown): _ProtoTool {
  const input = _translated(name, inputSchema, 'Input');
  if (!input.ok) return input;
  const output = outputSchema === undefined ? undefined : _translated(name, outputSchema, 'Output');
  const files = output?.ok ? [jsonOptionsFile, input.file, output.file] : [jsonOptionsFile, input.file];
  return {
    ok: true,
    typeUrl: input.typeUrl,
    desc: input.desc,
    schema: create(FileDescriptorSetSchema, { file: files }),
    output: output?.ok ? { typeUrl: output.typeUrl, desc: output.desc } : undefined,
  };
}

/**
 * `structured` packed as the tool's output message, or as a `google.protobuf.Struct` when the
 * tool has none or the value does not fit it (an error result's, a summary's `{content}`).
 */
export function _packStructured(tool: _ProtoTool | undefined, structured: unknown): Any {
  if (tool?.ok && tool.output !== undefined) {
    try {
      return create(AnySchema, {
        typeUrl: tool.output.typeUrl,
        value: encodeArguments(tool.output.desc, structured as never),
      });
    } catch {
      // Not of the output schema's shape: sent as JSON below, nothing lost.
    }
  }
  return anyPack(StructSchema, fromJson(StructSchema, structured as never));
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
