// A face over local sources only (a pure MCP gateway: no relay, no identity) needs no XProtocol
// caller: a real SDK client lists and calls its tool over Streamable HTTP. A face given XProtocol
// sources without a caller is refused when it is made, naming them.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { nodeCipher } from '@xprotocol/crypto/node';
import { translateSource } from '@xprotocol/translate';
import { afterAll, describe, expect, it } from 'vitest';
import { McpFace, type McpFaceServer, StateDatabase, serveMcpFace } from '../src/index.js';
import { recordingLogger } from './support/http-servers.js';

const echo = translateSource({
  name: 'local',
  namespace: 'test.local',
  adapterVersion: '0.0.0',
  tools: [
    {
      name: 'echo',
      description: 'Returns the text it is given, unchanged, so a test can see a call cross the face.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
  ],
});

const faceOptions = {
  state: new StateDatabase(':memory:'),
  callTimeoutMs: 10_000,
  sha256: nodeCipher.sha256,
  serverInfo: { name: 'face-without-caller', version: '0.0.0' },
};

let served: McpFaceServer | undefined;
let client: Client | undefined;

afterAll(async () => {
  await client?.close();
  await served?.close();
});

describe('a face without a caller', () => {
  it('serves local sources: tools/list and tools/call over HTTP', async () => {
    expect(echo.contracts.map((c) => c.kind)).toEqual(['test.local.echo']);
    const face = new McpFace({
      ...faceOptions,
      sources: [],
      localSources: [
        {
          name: 'local',
          key: 'gateway',
          contracts: () => echo.contracts,
          call: async (_kind, args) => ({ content: [{ type: 'text', text: `echo: ${String(args.text)}` }] }),
        },
      ],
    });
    served = await serveMcpFace(face, { transport: 'streamable_http', port: 0 }, recordingLogger());
    client = new Client({ name: 'no-caller-test', version: '0.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo', 'search_tools']);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
  });

  it('is refused with XProtocol sources, which it could not call', () => {
    expect(
      () =>
        new McpFace({
          ...faceOptions,
          sources: [{ name: 'weather', key: undefined, label: 'xp://w', prefix: '', schemaFilter: [] }],
        }),
    ).toThrow('McpFace: XProtocol sources (weather) need a caller');
  });
});
