/**
 * The proto-mcp message set (`buf.mcp.v1`, docs/architecture.md, "proto-mcp on the stdio face"): the descriptor of every message
 * the stdio face speaks to a protobuf client, built at load time from a table (no code generator),
 * and a registry holding it with the well-known files it imports.
 * @module
 */
import { create, createFileRegistry, type DescMessage, type FileRegistry } from '@bufbuild/protobuf';
import {
  type DescriptorProto,
  DescriptorProtoSchema,
  type FieldDescriptorProto,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FieldDescriptorProtoSchema,
  type FileDescriptorProto,
  FileDescriptorProtoSchema,
  file_google_protobuf_any,
  file_google_protobuf_descriptor,
  file_google_protobuf_struct,
} from '@bufbuild/protobuf/wkt';

/** The package of the message set. */
export const PROTO_MCP_PACKAGE = 'buf.mcp.v1';

/** The protocol version this face speaks; a client of another major version is refused. */
export const PROTO_MCP_VERSION = '1.0.0';

/** One field: number, name, type (`string`, `repeated T`, `map<string, T>`, a message name), oneof. */
type _Field = readonly [number, string, string, string?];

/** The messages of the set, in the order of its specification. */
const MESSAGES: Record<string, readonly _Field[]> = {
  MCPMessage: [
    [1, 'id', 'uint64'],
    [2, 'initialize_request', 'InitializeRequest', 'payload'],
    [3, 'initialize_response', 'InitializeResponse', 'payload'],
    [4, 'list_tools_request', 'ListToolsRequest', 'payload'],
    [5, 'list_tools_response', 'ListToolsResponse', 'payload'],
    [6, 'call_tool_request', 'CallToolRequest', 'payload'],
    [7, 'call_tool_response', 'CallToolResponse', 'payload'],
    [8, 'list_resources_request', 'ListResourcesRequest', 'payload'],
    [9, 'list_resources_response', 'ListResourcesResponse', 'payload'],
    [10, 'read_resource_request', 'ReadResourceRequest', 'payload'],
    [11, 'read_resource_response', 'ReadResourceResponse', 'payload'],
    [12, 'error_response', 'ErrorResponse', 'payload'],
  ],
  InitializeRequest: [
    [1, 'protocol_version', 'string'],
    [2, 'capabilities', 'ClientCapabilities'],
    [3, 'metadata', 'map<string, string>'],
  ],
  ClientCapabilities: [
    [1, 'supports_bsr_refs', 'bool'],
    [2, 'supports_streaming', 'bool'],
    [3, 'encodings', 'repeated string'],
    [4, 'experimental', 'map<string, bool>'],
  ],
  InitializeResponse: [
    [1, 'protocol_version', 'string'],
    [2, 'capabilities', 'ServerCapabilities'],
    [3, 'metadata', 'map<string, string>'],
  ],
  ServerCapabilities: [
    [1, 'supports_bsr_refs', 'bool'],
    [2, 'supports_streaming', 'bool'],
    [3, 'tools', 'ToolCapabilities'],
    [4, 'resources', 'ResourceCapabilities'],
    [5, 'prompts', 'PromptCapabilities'],
  ],
  ToolCapabilities: [[1, 'supports_list_changed', 'bool']],
  ResourceCapabilities: [
    [1, 'supports_subscribe', 'bool'],
    [2, 'supports_list_changed', 'bool'],
  ],
  PromptCapabilities: [[1, 'supports_list_changed', 'bool']],
  ListToolsRequest: [
    [1, 'bsr_refs', 'repeated string'],
    [2, 'include_schemas', 'bool'],
    [3, 'cursor', 'string'],
  ],
  ListToolsResponse: [
    [1, 'tools', 'repeated Tool'],
    [2, 'next_cursor', 'string'],
  ],
  Tool: [
    [1, 'name', 'string'],
    [2, 'description', 'string'],
    [3, 'bsr_ref', 'string', 'schema_source'],
    [4, 'inline_schema', '.google.protobuf.FileDescriptorSet', 'schema_source'],
    [5, 'metadata', 'map<string, string>'],
  ],
  CallToolRequest: [
    [1, 'name', 'string'],
    [2, 'arguments', '.google.protobuf.Any'],
    [3, 'metadata', 'map<string, string>'],
  ],
  CallToolResponse: [
    [1, 'success', 'ToolResult', 'result'],
    [2, 'error', 'Error', 'result'],
    [3, 'metadata', 'map<string, string>'],
  ],
  ToolResult: [
    [1, 'content', 'repeated ToolContent'],
    [2, 'is_error', 'bool'],
  ],
  ToolContent: [
    [1, 'text', 'string', 'content'],
    [2, 'image', 'bytes', 'content'],
    [3, 'data', '.google.protobuf.Any', 'content'],
    [4, 'mime_type', 'string'],
  ],
  ListResourcesRequest: [[1, 'cursor', 'string']],
  ListResourcesResponse: [
    [1, 'resources', 'repeated Resource'],
    [2, 'next_cursor', 'string'],
  ],
  Resource: [
    [1, 'uri', 'string'],
    [2, 'name', 'string'],
    [3, 'description', 'string'],
    [4, 'mime_type', 'string'],
    [5, 'metadata', 'map<string, string>'],
  ],
  ReadResourceRequest: [[1, 'uri', 'string']],
  ReadResourceResponse: [[1, 'contents', 'repeated ResourceContent']],
  ResourceContent: [
    [1, 'uri', 'string'],
    [2, 'mime_type', 'string'],
    [3, 'text', 'string', 'content'],
    [4, 'blob', 'bytes', 'content'],
  ],
  ErrorResponse: [
    [1, 'code', 'int32'],
    [2, 'message', 'string'],
    [3, 'data', '.google.protobuf.Struct'],
  ],
  Error: [
    [1, 'code', 'int32'],
    [2, 'message', 'string'],
    [3, 'data', 'map<string, string>'],
  ],
};

const SCALARS: Record<string, FieldDescriptorProto_Type> = {
  string: FieldDescriptorProto_Type.STRING,
  bool: FieldDescriptorProto_Type.BOOL,
  bytes: FieldDescriptorProto_Type.BYTES,
  int32: FieldDescriptorProto_Type.INT32,
  uint64: FieldDescriptorProto_Type.UINT64,
};

/** `snake_case` → `lowerCamelCase`, protoc's default `json_name`. */
function _jsonName(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The field of `type` (a scalar or a message name; `.`-prefixed names are already full). */
function _field(number: number, name: string, type: string, repeated: boolean): FieldDescriptorProto {
  const scalar = SCALARS[type];
  return create(FieldDescriptorProtoSchema, {
    name,
    number,
    jsonName: _jsonName(name),
    label: repeated ? FieldDescriptorProto_Label.REPEATED : FieldDescriptorProto_Label.OPTIONAL,
    type: scalar ?? FieldDescriptorProto_Type.MESSAGE,
    ...(scalar === undefined && { typeName: type.startsWith('.') ? type : `.${PROTO_MCP_PACKAGE}.${type}` }),
  });
}

/** `PascalCase` of a field name, for a map's entry message (`metadata` → `MetadataEntry`). */
function _entryName(field: string): string {
  return `${field.replace(/(^|_)([a-z])/g, (_, _u: string, c: string) => c.toUpperCase())}Entry`;
}

function _message(name: string, fields: readonly _Field[]): DescriptorProto {
  const message = create(DescriptorProtoSchema, { name });
  const oneofs: string[] = [];
  for (const [number, fieldName, type, oneof] of fields) {
    const map = /^map<(\w+), ([.\w]+)>$/.exec(type);
    const repeated = /^repeated ([.\w]+)$/.exec(type);
    let field: FieldDescriptorProto;
    if (map) {
      const entry = _entryName(fieldName);
      message.nestedType.push(
        create(DescriptorProtoSchema, {
          name: entry,
          field: [_field(1, 'key', map[1]!, false), _field(2, 'value', map[2]!, false)],
          options: { mapEntry: true },
        }),
      );
      field = _field(number, fieldName, `${name}.${entry}`, true);
    } else field = _field(number, fieldName, repeated ? repeated[1]! : type, repeated !== null);
    if (oneof !== undefined) {
      if (!oneofs.includes(oneof)) oneofs.push(oneof);
      field.oneofIndex = oneofs.indexOf(oneof);
    }
    message.field.push(field);
  }
  message.oneofDecl = oneofs.map((n) => ({ $typeName: 'google.protobuf.OneofDescriptorProto', name: n }));
  return message;
}

/** The `buf/mcp/v1/mcp.proto` file of the message set. */
export const protoMcpFile: FileDescriptorProto = create(FileDescriptorProtoSchema, {
  name: 'buf/mcp/v1/mcp.proto',
  package: PROTO_MCP_PACKAGE,
  syntax: 'proto3',
  dependency: [
    'google/protobuf/any.proto',
    'google/protobuf/descriptor.proto',
    'google/protobuf/struct.proto',
  ],
  messageType: Object.entries(MESSAGES).map(([name, fields]) => _message(name, fields)),
});

const IMPORTS = new Map([
  ['google/protobuf/any.proto', file_google_protobuf_any],
  ['google/protobuf/descriptor.proto', file_google_protobuf_descriptor],
  ['google/protobuf/struct.proto', file_google_protobuf_struct],
]);

/** The message set with the well-known files it imports. */
export const protoMcpRegistry: FileRegistry = createFileRegistry(protoMcpFile, (name) => IMPORTS.get(name));

/** The descriptor of `buf.mcp.v1.<name>`; throws for a name the set does not have. */
export function protoMcpMessage(name: string): DescMessage {
  const desc = protoMcpRegistry.getMessage(`${PROTO_MCP_PACKAGE}.${name}`);
  if (desc === undefined) throw new Error(`proto-mcp: no message ${PROTO_MCP_PACKAGE}.${name}`);
  return desc;
}
