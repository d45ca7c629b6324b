// The stdio face speaking proto-mcp (docs/architecture.md, "proto-mcp on the stdio face"), against the built adapter bin wrapping
// the real `@modelcontextprotocol/server-everything`: a protobuf client written here with
// `@bufbuild/protobuf` frames `buf.mcp.v1.MCPMessage`s (4-byte big-endian lengths), initializes,
// lists the tools with their inline `FileDescriptorSet`s, packs `echo`'s arguments in a
// `google.protobuf.Any` of the listed message and reads the answer; a JSON-RPC client of the same
// bin is served as before. The same calls are counted in bytes both ways (docs/performance.md).
import type { ChildProcess } from 'node:child_process';
import {
  create,
  createFileRegistry,
  type DescMessage,
  fromBinary,
  fromJson,
  type Registry,
  toBinary,
  toJson,
} from '@bufbuild/protobuf';
import {
  type Any,
  anyPack,
  type FileDescriptorProto,
  type FileDescriptorSet,
  file_google_protobuf_descriptor,
  file_google_protobuf_struct,
  StructSchema,
} from '@bufbuild/protobuf/wkt';
import { file_buf_validate_validate } from '@bufbuild/protovalidate/gen/buf/validate/validate_pb.js';
import { PROTO_MCP_ERRORS, protoMcpMessage } from '@xprotocol/mcp-bridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER, Processes } from './support/processes.js';

const procs = new Processes();
const MCP_MESSAGE = protoMcpMessage('MCPMessage');
/** What each protocol moved for the same exchanges: bytes written to the face, bytes read back. */
const bytes = { proto: { list: 0, listInline: 0, call: 0 }, json: { list: 0, call: 0 } };

/** A config of a face on stdio over server-everything, with no relay (a pure gateway). */
function gatewayConfig(name: string): string {
  return procs.file(
    `${name}.yml`,
    `mcp_sources:
  - name: everything
    transport: stdio
    command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(EVERYTHING_SERVER)}, stdio]
    xprotocol_namespace: com.test.everything
    timeouts:
      tools:
        trigger-long-running-operation: 0.5
mcp_server:
  transport: stdio
state_database: ./${name}.db
logging:
  level: warn
  format: json
`,
  );
}

/** A protobuf client of one adapter child: frames out on stdin, frames in from stdout. */
class ProtoClient {
  #pending = Buffer.alloc(0);
  #waiting = new Map<bigint, (message: Record<string, unknown>, size: number) => void>();
  #nextId = 1n;

  constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (chunk: Buffer) => {
      this.#pending = Buffer.concat([this.#pending, chunk]);
      while (this.#pending.length >= 4 && this.#pending.length >= 4 + this.#pending.readUInt32BE(0)) {
        const length = this.#pending.readUInt32BE(0);
        const message = fromBinary(MCP_MESSAGE, this.#pending.subarray(4, 4 + length)) as never as Record<
          string,
          unknown
        >;
        this.#pending = this.#pending.subarray(4 + length);
        this.#waiting.get(message.id as bigint)?.(message, 4 + length);
      }
    });
  }

  /** Sends `payload` with a fresh id; resolves with the answer's payload and the bytes both ways. */
  async request(
    payloadCase: string,
    value: Record<string, unknown>,
  ): Promise<{ case: string; value: Record<string, unknown>; sent: number; received: number }> {
    const id = this.#nextId++;
    const body = toBinary(
      MCP_MESSAGE,
      create(MCP_MESSAGE, { id, payload: { case: payloadCase, value } } as never),
    );
    const frame = Buffer.alloc(4 + body.length);
    frame.writeUInt32BE(body.length, 0);
    frame.set(body, 4);
    const answer = new Promise<{ message: Record<string, unknown>; size: number }>((resolve) =>
      this.#waiting.set(id, (message, size) => resolve({ message, size })),
    );
    this.child.stdin!.write(frame);
    const { message, size } = await answer;
    const payload = message.payload as { case: string; value: Record<string, unknown> };
    return { case: payload.case, value: payload.value, sent: frame.length, received: size };
  }
}

const WELL_KNOWN = new Map<string, unknown>([
  ['google/protobuf/struct.proto', file_google_protobuf_struct],
  ['google/protobuf/descriptor.proto', file_google_protobuf_descriptor],
  ['buf/validate/validate.proto', file_buf_validate_validate],
]);

/** A registry of an inline schema: its files in order, the well-known ones from the runtimes. */
function registryOf(
  set: FileDescriptorSet,
): Registry & { getMessage(name: string): DescMessage | undefined } {
  const made = new Map<string, unknown>();
  const registries: ReturnType<typeof createFileRegistry>[] = [];
  for (const file of set.file as FileDescriptorProto[]) {
    const registry = createFileRegistry(file, (n) => (made.get(n) ?? WELL_KNOWN.get(n)) as never);
    made.set(file.name, registry.getFile(file.name));
    registries.push(registry);
  }
  return createFileRegistry(...registries);
}

let proto: ProtoClient;
let jsonChild: ChildProcess;

beforeAll(async () => {
  proto = new ProtoClient((await procs.adapter(gatewayConfig('proto'))).child);
  ({ child: jsonChild } = await procs.adapter(gatewayConfig('json')));
}, 120_000);
afterAll(async () => {
  await procs.close();
});

describe('proto-mcp on the stdio face', () => {
  it('refuses another major version (-33002), then initializes with the face instructions', async () => {
    const refused = await proto.request('initializeRequest', { protocolVersion: '2.0.0' });
    expect(refused.case).toBe('errorResponse');
    expect(refused.value.code).toBe(PROTO_MCP_ERRORS.unsupportedVersion);
    expect(refused.value.message).toContain('"2.0.0"');

    const answer = await proto.request('initializeRequest', {
      protocolVersion: '1.0.0',
      capabilities: { encodings: ['protobuf'] },
      metadata: { name: 'proto-e2e', version: '0.0.0' },
    });
    expect(answer.case).toBe('initializeResponse');
    expect(answer.value.protocolVersion).toBe('1.0.0');
    expect((answer.value.capabilities as Record<string, unknown>).tools).toBeDefined();
    expect((answer.value.metadata as Record<string, string>).instructions).toContain('search_tools');
  }, 60_000);

  it('lists the tools with inline schemas and calls echo with its own message packed in Any', async () => {
    const bare = await proto.request('listToolsRequest', {});
    bytes.proto.list = bare.sent + bare.received;
    expect((bare.value.tools as { schemaSource: { case?: string } }[])[0]!.schemaSource.case).toBeUndefined();
    const listed = await proto.request('listToolsRequest', { includeSchemas: true });
    bytes.proto.listInline = listed.sent + listed.received;
    expect(listed.case).toBe('listToolsResponse');
    const tools = listed.value.tools as {
      name: string;
      schemaSource: { case?: string; value?: FileDescriptorSet };
      metadata: Record<string, string>;
    }[];
    const echo = tools.find((t) => t.name === 'echo');
    expect(echo?.schemaSource.case).toBe('inlineSchema');
    const typeUrl = echo!.metadata.input_type_url!;
    expect(typeUrl).toBe('type.googleapis.com/xprotocol.mcp.tools.EchoInput');
    const desc = registryOf(echo!.schemaSource.value!).getMessage(typeUrl.split('/')[1]!)!;
    // `message`, and the rest field echo's open schema allows (docs/translation.md §8).
    expect(desc.fields.map((f) => f.jsonName)).toEqual(['message', 'additional_properties']);

    const called = await proto.request('callToolRequest', {
      name: 'echo',
      arguments: anyPack(desc, fromJson(desc, { message: 'through proto-mcp' })),
    });
    bytes.proto.call = called.sent + called.received;
    expect(called.case).toBe('callToolResponse');
    const result = called.value.result as { case: string; value: Record<string, unknown> };
    expect(result.case).toBe('success');
    const content = result.value.content as { content: { case: string; value: unknown } }[];
    expect(content[0]!.content).toEqual({ case: 'text', value: 'Echo: through proto-mcp' });
  }, 60_000);

  it('sends structuredContent as the output message its inline schema declares', async () => {
    const listed = await proto.request('listToolsRequest', { includeSchemas: true });
    const tools = listed.value.tools as {
      name: string;
      schemaSource: { value?: FileDescriptorSet };
      metadata: Record<string, string>;
    }[];
    const tool = tools.find((t) => t.name === 'get-structured-content')!;
    const outputUrl = tool.metadata.output_type_url!;
    expect(outputUrl).toBe('type.googleapis.com/xprotocol.mcp.tools.GetStructuredContentOutput');
    const registry = registryOf(tool.schemaSource.value!);
    const input = registry.getMessage(tool.metadata.input_type_url!.split('/')[1]!)!;
    const output = registry.getMessage(outputUrl.split('/')[1]!)!;
    // A string enum is a protobuf enum: the client picks the value, by name, from the descriptor.
    const location = input.fields.find((f) => f.jsonName === 'location')!;
    const chicago = location.enum!.values.find((v) => v.name.endsWith('_CHICAGO'))!;
    const called = await proto.request('callToolRequest', {
      name: 'get-structured-content',
      arguments: anyPack(input, create(input, { location: chicago.number } as never)),
    });
    const result = called.value.result as { case: string; value: Record<string, unknown> };
    expect(result.case).toBe('success');
    const content = result.value.content as { content: { case: string; value: Any } }[];
    const data = content.find((c) => c.content.case === 'data')!.content.value;
    expect(data.typeUrl).toBe(outputUrl);
    const weather = toJson(output, fromBinary(output, data.value)) as Record<string, unknown>;
    expect(Object.keys(weather).sort()).toEqual(['conditions', 'humidity', 'temperature']);
    expect(typeof weather.temperature).toBe('number');
  }, 60_000);

  it('takes JSON arguments as a Struct, and refuses arguments of another type (-33001)', async () => {
    const asStruct = await proto.request('callToolRequest', {
      name: 'echo',
      arguments: anyPack(StructSchema, fromJson(StructSchema, { message: 'as a Struct' })),
    });
    const ok = asStruct.value.result as { case: string; value: Record<string, unknown> };
    expect(ok.case).toBe('success');
    expect((ok.value.content as { content: unknown }[])[0]!.content).toEqual({
      case: 'text',
      value: 'Echo: as a Struct',
    });

    const wrong = await proto.request('callToolRequest', {
      name: 'echo',
      arguments: { typeUrl: 'type.googleapis.com/acme.Other', value: new Uint8Array() },
    });
    const refused = wrong.value.result as { case: string; value: Record<string, unknown> };
    expect(refused.case).toBe('error');
    expect(refused.value.code).toBe(PROTO_MCP_ERRORS.schemaValidation);
    expect(refused.value.message).toContain('"type.googleapis.com/acme.Other"');

    // The face's own schema check: echo requires `message`.
    const missing = await proto.request('callToolRequest', {
      name: 'echo',
      arguments: anyPack(StructSchema, fromJson(StructSchema, {})),
    });
    const answer = missing.value.result as { case: string; value: Record<string, unknown> };
    expect(answer.case).toBe('error');
    expect(answer.value.code).toBe(PROTO_MCP_ERRORS.schemaValidation);
    expect(answer.value.message).toContain('missing required property "message"');
    expect(answer.value.data).toEqual({ xp_code: 'SCHEMA_VIOLATION' });
  }, 60_000);

  it('answers a call past its tool timeout with -33003', async () => {
    const called = await proto.request('callToolRequest', {
      name: 'trigger-long-running-operation',
      arguments: anyPack(StructSchema, fromJson(StructSchema, { duration: 30, steps: 3 })),
    });
    const result = called.value.result as { case: string; value: Record<string, unknown> };
    expect(result.case).toBe('error');
    expect(result.value.code).toBe(PROTO_MCP_ERRORS.toolTimeout);
    expect(result.value.data).toEqual({ xp_code: 'TIMEOUT' });
  }, 60_000);

  it("lists and reads the wrapped server's resources", async () => {
    const listed = await proto.request('listResourcesRequest', {});
    expect(listed.case).toBe('listResourcesResponse');
    const resources = listed.value.resources as { uri: string; name: string; mimeType: string }[];
    expect(resources.length).toBeGreaterThan(0);
    const text = resources.find((r) => r.mimeType.startsWith('text/')) ?? resources[0]!;
    const read = await proto.request('readResourceRequest', { uri: text.uri });
    expect(read.case).toBe('readResourceResponse');
    const contents = read.value.contents as { uri: string; content: { case: string; value: unknown } }[];
    expect(contents[0]!.uri).toBe(text.uri);
    expect(['text', 'blob']).toContain(contents[0]!.content.case);
  }, 60_000);

  it('answers a frame that is not an MCPMessage with -32700', async () => {
    const child = proto.child;
    const answer = new Promise<Record<string, unknown>>((resolve) => {
      const onData = (chunk: Buffer) => {
        const message = fromBinary(MCP_MESSAGE, chunk.subarray(4)) as never as Record<string, unknown>;
        const payload = message.payload as { case: string; value: Record<string, unknown> };
        if (payload.case === 'errorResponse' && payload.value.code === -32700) {
          child.stdout!.off('data', onData);
          resolve(payload.value);
        }
      };
      child.stdout!.on('data', onData);
    });
    child.stdin!.write(Buffer.from([0, 0, 0, 2, 0xff, 0xff]));
    expect((await answer).message).toContain('not a buf.mcp.v1.MCPMessage');
  }, 60_000);
});

describe('proto-mcp requests pipelined behind initialize', () => {
  it('are answered once the session is up, sent without waiting for initialize', async () => {
    const { child } = await procs.adapter(gatewayConfig('pipelined'));
    const client = new ProtoClient(child);
    const [init, listed] = await Promise.all([
      client.request('initializeRequest', { protocolVersion: '1.0.0' }),
      client.request('listToolsRequest', {}),
    ]);
    expect(init.case).toBe('initializeResponse');
    expect(listed.case).toBe('listToolsResponse');
    expect((listed.value.tools as { name: string }[]).map((t) => t.name)).toContain('echo');
  }, 120_000);
});

describe('JSON-RPC on the same bin', () => {
  /** Writes one line, resolves with the answer with `id` and the bytes both ways. */
  function exchange(
    message: Record<string, unknown>,
  ): Promise<{ answer: Record<string, unknown>; size: number }> {
    const line = `${JSON.stringify(message)}\n`;
    return new Promise((resolve) => {
      let pending = '';
      const onData = (chunk: Buffer) => {
        pending += chunk.toString('utf8');
        for (;;) {
          const newline = pending.indexOf('\n');
          if (newline === -1) return;
          const text = pending.slice(0, newline + 1);
          pending = pending.slice(newline + 1);
          const answer = JSON.parse(text) as Record<string, unknown>;
          if (answer.id === message.id) {
            jsonChild.stdout!.off('data', onData);
            resolve({ answer, size: Buffer.byteLength(line) + Buffer.byteLength(text) });
            return;
          }
        }
      };
      jsonChild.stdout!.on('data', onData);
      jsonChild.stdin!.write(line);
    });
  }

  it('is served as before: initialize, tools/list, tools/call (and the bytes of each protocol)', async () => {
    const init = await exchange({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    expect((init.answer.result as Record<string, unknown>).instructions).toContain('search_tools');
    jsonChild.stdin!.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    const listed = await exchange({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    bytes.json.list = listed.size;
    const names = ((listed.answer.result as { tools: { name: string }[] }).tools ?? []).map((t) => t.name);
    expect(names).toContain('echo');
    const called = await exchange({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'through proto-mcp' } },
    });
    bytes.json.call = called.size;
    expect((called.answer.result as { content: unknown[] }).content).toEqual([
      { type: 'text', text: 'Echo: through proto-mcp' },
    ]);
    console.log('proto-mcp vs JSON-RPC, bytes both ways:', JSON.stringify(bytes));
    // Both sides were measured on the same calls.
    expect(bytes.proto.call).toBeGreaterThan(0);
    expect(bytes.proto.list).toBeGreaterThan(0);
  }, 60_000);
});
