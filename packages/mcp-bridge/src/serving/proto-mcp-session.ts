/**
 * One proto-mcp connection on the stdio face (docs/architecture.md, "proto-mcp on the stdio face"). Each frame's `MCPMessage` is
 * answered by an MCP client of one face server on an in-memory transport, so a protobuf client
 * sees exactly what a JSON-RPC client of the same face sees: the same tools, the same schema
 * checks, grants, rate limits and result caps.
 * @module
 */
import { create, fromBinary, fromJson, toBinary } from '@bufbuild/protobuf';
import { anyPack, StructSchema } from '@bufbuild/protobuf/wkt';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import type { McpFace } from '../face/mcp-face.js';
import type { BridgeLogger } from '../logger.js';
import { PROTO_MCP_VERSION, protoMcpMessage } from './proto-mcp-messages.js';
import {
  _argumentsOf,
  type _ProtoTool,
  _packStructured,
  _protoToolOf,
  STRUCT_TYPE_URL,
} from './proto-mcp-tools.js';

/** proto-mcp's own error codes, beside the JSON-RPC ones. */
export const PROTO_MCP_ERRORS = {
  /** A BSR schema reference was asked for; this face has no registry and sends schemas inline. */
  schemaResolution: -33000,
  /** The arguments did not decode as the tool's message or did not meet its schema. */
  schemaValidation: -33001,
  /** The client's protocol version is of another major version. */
  unsupportedVersion: -33002,
  /** The tool did not answer within its timeout. */
  toolTimeout: -33003,
} as const;

const MCP_MESSAGE = protoMcpMessage('MCPMessage');

/** A message of the set, untyped (the descriptors are built at load time). */
type _Msg = Record<string, unknown>;
type _Payload = { case: string | undefined; value?: _Msg };

/** A refusal that becomes an `ErrorResponse` (or a call's `Error`) with `code`. */
class _ProtoMcpError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Serves one protobuf client: `handle` each frame, answers go to `write` as frames' bodies. */
export class _ProtoMcpSession {
  readonly #face: McpFace;
  readonly #write: (bytes: Uint8Array) => void;
  readonly #logger: BridgeLogger;
  readonly #maxResultBytes: number;
  /** The session with the face server, from the first `initialize` on (it may still be connecting). */
  #client: Promise<Client> | undefined;
  readonly #tools = new Map<string, _ProtoTool>();

  constructor(
    face: McpFace,
    write: (bytes: Uint8Array) => void,
    logger: BridgeLogger,
    maxResultBytes: number,
  ) {
    this.#face = face;
    this.#write = write;
    this.#logger = logger;
    this.#maxResultBytes = maxResultBytes;
  }

  /** Answers one frame; never throws (a malformed frame is answered `-32700` with id 0). */
  async handle(frame: Uint8Array): Promise<void> {
    let id = 0n;
    let message: _Msg;
    try {
      message = fromBinary(MCP_MESSAGE, frame) as unknown as _Msg;
      id = message.id as bigint;
    } catch (error) {
      this.#answerError(
        id,
        -32700,
        `Parse error: the frame is not a buf.mcp.v1.MCPMessage (${_text(error)})`,
      );
      return;
    }
    const payload = message.payload as _Payload;
    try {
      const answer = await this.#dispatch(payload);
      const bytes = toBinary(MCP_MESSAGE, create(MCP_MESSAGE, { id, payload: answer } as never));
      if (bytes.length > this.#maxResultBytes) {
        throw new _ProtoMcpError(
          -32603,
          `the answer is ${bytes.length} bytes, over the face's cap of ${this.#maxResultBytes} (mcp_server.max_result_bytes); narrow the request or page`,
        );
      }
      this.#write(bytes);
    } catch (error) {
      const code = error instanceof _ProtoMcpError ? error.code : -32603;
      if (code === -32603) this.#logger.warn({ error: _text(error) }, 'proto-mcp: a request failed');
      this.#answerError(id, code, _text(error));
    }
  }

  /** Answers a frame the reader skipped for its length (its id is unread, so 0). */
  refuseOversized(length: number, maxBytes: number): void {
    this.#answerError(
      0n,
      -32600,
      `Invalid request: a frame of ${length} bytes, over the cap of ${maxBytes}; it was skipped unread`,
    );
  }

  /** Ends the in-memory session with the face server. */
  async close(): Promise<void> {
    await (await this.#client?.catch(() => undefined))?.close();
  }

  async #dispatch(payload: _Payload): Promise<_Payload> {
    switch (payload.case) {
      case 'initializeRequest':
        return { case: 'initializeResponse', value: await this.#initialize(payload.value ?? {}) };
      case 'listToolsRequest':
        return { case: 'listToolsResponse', value: await this.#listTools(payload.value ?? {}) };
      case 'callToolRequest':
        return { case: 'callToolResponse', value: await this.#callTool(payload.value ?? {}) };
      case 'listResourcesRequest': {
        const cursor = (payload.value?.cursor as string) || undefined;
        const listed = await (await this.#session()).listResources(cursor ? { cursor } : {});
        return {
          case: 'listResourcesResponse',
          value: {
            resources: listed.resources.map((r) => ({
              uri: r.uri,
              name: r.name,
              description: r.description ?? '',
              mimeType: r.mimeType ?? '',
            })),
            nextCursor: listed.nextCursor ?? '',
          },
        };
      }
      case 'readResourceRequest': {
        const read = await (await this.#session()).readResource({
          uri: (payload.value?.uri as string) ?? '',
        });
        return {
          case: 'readResourceResponse',
          value: {
            contents: read.contents.map((c) => ({
              uri: c.uri,
              mimeType: c.mimeType ?? '',
              content:
                'text' in c
                  ? { case: 'text', value: c.text }
                  : { case: 'blob', value: Buffer.from(String(c.blob), 'base64') },
            })),
          },
        };
      }
      case undefined:
        throw new _ProtoMcpError(-32600, 'Invalid request: the MCPMessage has no payload');
      default:
        throw new _ProtoMcpError(
          -32600,
          `Invalid request: ${payload.case} is an answer; a client sends initialize_request, list_tools_request, call_tool_request, list_resources_request or read_resource_request`,
        );
    }
  }

  /** The session with the face server; a request pipelined behind `initialize` waits for it. */
  #session(): Promise<Client> {
    if (this.#client === undefined) {
      throw new _ProtoMcpError(-32600, 'Invalid request: send initialize_request first');
    }
    return this.#client;
  }

  async #initialize(request: _Msg): Promise<_Msg> {
    const version = String(request.protocolVersion ?? '');
    if (version.split('.')[0] !== PROTO_MCP_VERSION.split('.')[0]) {
      throw new _ProtoMcpError(
        PROTO_MCP_ERRORS.unsupportedVersion,
        `Unsupported protocol version "${version}": this face speaks proto-mcp ${PROTO_MCP_VERSION} (1.x)`,
      );
    }
    if (this.#client !== undefined) throw new _ProtoMcpError(-32600, 'Invalid request: already initialized');
    const metadata = (request.metadata ?? {}) as Record<string, string>;
    const client = new Client(
      { name: metadata.name || 'proto-mcp client', version: metadata.version || '0.0.0' },
      { capabilities: {} },
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    this.#client = (async () => {
      await this.#face.createServer({}).connect(serverSide);
      await client.connect(clientSide);
      return client;
    })();
    try {
      await this.#client;
    } catch (error) {
      this.#client = undefined; // a later initialize may try again
      throw error;
    }
    const capabilities = client.getServerCapabilities() ?? {};
    const server = client.getServerVersion();
    const instructions = client.getInstructions();
    return {
      protocolVersion: PROTO_MCP_VERSION,
      capabilities: {
        supportsBsrRefs: false,
        supportsStreaming: false,
        ...(capabilities.tools && { tools: { supportsListChanged: false } }),
        ...(capabilities.resources && {
          resources: { supportsSubscribe: false, supportsListChanged: false },
        }),
        ...(capabilities.prompts && { prompts: { supportsListChanged: false } }),
      },
      metadata: {
        ...(server && { name: server.name, version: server.version }),
        ...(instructions && { instructions }),
      },
    };
  }

  async #listTools(request: _Msg): Promise<_Msg> {
    if ((request.bsrRefs as string[] | undefined)?.length) {
      throw new _ProtoMcpError(
        PROTO_MCP_ERRORS.schemaResolution,
        'Schema resolution failed: this face has no schema registry (BSR); list with include_schemas for inline schemas',
      );
    }
    const cursor = (request.cursor as string) || undefined;
    const listed = await (await this.#session()).listTools(cursor ? { cursor } : {});
    const tools = listed.tools.map((tool) => {
      const proto = _protoToolOf(tool.name, tool.inputSchema, tool.outputSchema);
      this.#tools.set(tool.name, proto);
      return {
        name: tool.name,
        description: tool.description ?? '',
        ...(proto.ok &&
          request.includeSchemas === true && { schemaSource: { case: 'inlineSchema', value: proto.schema } }),
        metadata: proto.ok
          ? { input_type_url: proto.typeUrl, ...(proto.output && { output_type_url: proto.output.typeUrl }) }
          : { input_type_url: STRUCT_TYPE_URL, proto_refused: proto.reason },
      };
    });
    return { tools, nextCursor: listed.nextCursor ?? '' };
  }

  async #callTool(request: _Msg): Promise<_Msg> {
    const name = String(request.name ?? '');
    let args: Record<string, unknown>;
    try {
      args = _argumentsOf(this.#tools.get(name), request.arguments as never);
    } catch (error) {
      return _callError(PROTO_MCP_ERRORS.schemaValidation, `Schema validation failed: ${_text(error)}`);
    }
    let result: Awaited<ReturnType<Client['callTool']>>;
    try {
      result = await (await this.#session()).callTool({ name, arguments: args });
    } catch (error) {
      if (error instanceof _ProtoMcpError) throw error;
      const { code, data } = error as { code?: unknown; data?: { xp_code?: unknown } };
      const xp = typeof data?.xp_code === 'string' ? data.xp_code : undefined;
      const withXp = xp === undefined ? {} : { xp_code: xp };
      // A schema violation and a timeout have proto-mcp codes of their own, whether the face names
      // them by JSON-RPC code (invalid params, request timeout) or by XProtocol code.
      if (xp !== undefined && xp in XP_CODE_TO_PROTO)
        return _callError(XP_CODE_TO_PROTO[xp]!, _text(error), withXp);
      if (code === -32602) return _callError(PROTO_MCP_ERRORS.schemaValidation, _text(error), withXp);
      if (code === -32001) return _callError(PROTO_MCP_ERRORS.toolTimeout, _text(error), withXp);
      return _callError(typeof code === 'number' ? code : -32603, _text(error), withXp);
    }
    // The face answers a schema violation or a timeout as a tool error with its XProtocol code;
    // proto-mcp has codes of its own for both.
    const xpCode = (result.structuredContent as { xp_code?: unknown } | undefined)?.xp_code;
    if (result.isError === true && typeof xpCode === 'string' && xpCode in XP_CODE_TO_PROTO) {
      const text = ((result.content ?? []) as _Msg[]).find((c) => c.type === 'text')?.text;
      return _callError(XP_CODE_TO_PROTO[xpCode]!, String(text ?? xpCode), { xp_code: xpCode });
    }
    const content = ((result.content ?? []) as _Msg[]).map(_contentOf);
    if (result.structuredContent !== undefined) {
      content.push({
        content: { case: 'data', value: _packStructured(this.#tools.get(name), result.structuredContent) },
        mimeType: 'application/json',
      });
    }
    return { result: { case: 'success', value: { content, isError: result.isError === true } } };
  }

  #answerError(id: bigint, code: number, message: string): void {
    const answer = create(MCP_MESSAGE, {
      id,
      payload: { case: 'errorResponse', value: { code, message } },
    } as never);
    this.#write(toBinary(MCP_MESSAGE, answer));
  }
}

/** The XProtocol codes of a face's tool errors that proto-mcp names with a code of its own. */
const XP_CODE_TO_PROTO: Record<string, number> = {
  SCHEMA_VIOLATION: PROTO_MCP_ERRORS.schemaValidation,
  TIMEOUT: PROTO_MCP_ERRORS.toolTimeout,
  UPSTREAM_TIMEOUT: PROTO_MCP_ERRORS.toolTimeout,
};

function _callError(code: number, message: string, data: Record<string, string> = {}): _Msg {
  return { result: { case: 'error', value: { code, message, data } } };
}

/** One MCP content block as a `ToolContent`: text and images as they are, anything else as JSON. */
function _contentOf(block: _Msg): _Msg {
  if (block.type === 'text')
    return { content: { case: 'text', value: String(block.text) }, mimeType: 'text/plain' };
  if (block.type === 'image') {
    return {
      content: { case: 'image', value: Buffer.from(String(block.data), 'base64') },
      mimeType: String(block.mimeType ?? ''),
    };
  }
  // Audio, resources and links keep every member: the block itself, as a Struct.
  return {
    content: { case: 'data', value: anyPack(StructSchema, _struct(block)) },
    mimeType: 'application/vnd.mcp.content+json',
  };
}

/** A JSON object as a `google.protobuf.Struct`. */
function _struct(json: unknown) {
  return fromJson(StructSchema, json as never);
}

function _text(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
