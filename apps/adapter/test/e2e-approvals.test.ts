// Approvals (docs/operating.md, "Approvals"), against the built adapter bin in gateway mode wrapping
// the conformance fixture (the MCP SDK's server), which writes one line per tools/call it runs: a
// tool with `approvals: {<tool>: confirm}` is called by real SDK clients over Streamable HTTP. One
// that accepts the elicitation gets the result and the server ran the tool once; one that declines,
// and one that declared no elicitation capability, get a clear error and the server ran nothing. A
// tool without `confirm` runs without asking. The audit log has the refusals as `approval`. Across
// XProtocol (an SDK client on adapter A's face → a real relay → adapter B wrapping the fixture with
// the same `confirm`), B asks A's client through an `xp.mcp.server_request`, and the same three
// answers give the same outcomes.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceStdioBody } from './support/adapter-configs.js';
import { freePort, Processes } from './support/processes.js';

const procs = new Processes();
const metaFile = join(procs.dir, 'meta.jsonl');
const metaB = join(procs.dir, 'meta-b.jsonl');
const clients: Client[] = [];
let url: string;
/** Adapter A's face, whose tools are B's across XProtocol. */
let acrossUrl: string;

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}/mcp`;
  const config = procs.file(
    'gateway.yml',
    `mcp_sources:
  - name: conf
${conformanceStdioBody()}
    env:
      XP_FIXTURE_META: "${metaFile}"
    xprotocol_namespace: com.test.conf
    approvals:
      test_simple_text: confirm
      test_image_content: auto
mcp_server:
  transport: streamable_http
  port: ${port}
  expose: [mcp_sources]
audit:
  path: ./audit.log
state_database: ./gateway.db
logging:
  level: warn
  format: json
`,
  );
  await procs.adapter(config);
  const { url: relayUrl } = await procs.relay();
  const a = await procs.keygen('a.key');
  const b = await procs.keygen('b.key');
  await procs.adapter(
    procs.file(
      'b.yml',
      `identity:
  key_file: ./b.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: conformance
${conformanceStdioBody()}
    env:
      XP_FIXTURE_META: "${metaB}"
    xprotocol_namespace: com.test.conf
    approvals:
      test_simple_text: confirm
access:
  default: deny
  grants:
    - key: ${a.ed25519}
      capabilities: [com.test.conf.*]
state_database: ./b-state.db
logging:
  level: warn
  format: json
`,
    ),
  );
  const aPort = await freePort();
  acrossUrl = `http://127.0.0.1:${aPort}/mcp`;
  await procs.adapter(
    procs.file(
      'a.yml',
      `identity:
  key_file: ./a.key
relay:
  urls: [${relayUrl}]
xprotocol_sources:
  - name: b
    key: ${b.ed25519}
    relay: ${relayUrl}
    mcp_tool_prefix: conf_
mcp_server:
  transport: streamable_http
  port: ${aPort}
state_database: ./a-state.db
logging:
  level: warn
  format: json
`,
    ),
  );
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await procs.close();
});

/** A client whose user answers every confirmation with `action`; `asked` records the messages. */
async function client(action: 'accept' | 'decline' | 'cancel' | undefined, at = url) {
  const asked: string[] = [];
  const c = new Client(
    { name: `approvals-${action ?? 'none'}`, version: '0.0.0' },
    { capabilities: action === undefined ? {} : { elicitation: { form: {} } } },
  );
  if (action !== undefined) {
    c.setRequestHandler('elicitation/create', async (request) => {
      asked.push((request.params as { message: string }).message);
      return action === 'accept' ? { action, content: {} } : { action };
    });
  }
  await c.connect(new StreamableHTTPClientTransport(new URL(at)));
  clients.push(c);
  const { tools } = await c.listTools();
  const name = (suffix: string) => tools.find((t) => t.name.endsWith(suffix))!.name;
  return { c, asked, name };
}

/** The tools/call lines the server (B's with `file` = metaB) wrote for `tool`. */
function ran(tool: string, file = metaFile): number {
  if (!existsSync(file)) return 0;
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .filter((line) => (JSON.parse(line) as { name: string }).name === tool).length;
}

/** The error a call of `name` is refused with. */
async function refusal(c: Client, name: string): Promise<ProtocolError> {
  const error = await c.callTool({ name, arguments: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  return error as ProtocolError;
}

describe('approvals: confirm asks the MCP client before the server runs the tool', () => {
  it('runs the tool once the user accepts, after showing the call', async () => {
    const { c, asked, name } = await client('accept');
    const tool = name('test_simple_text');
    const result = await c.callTool({ name: tool, arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
    expect(asked).toEqual([`Run the tool ${tool} with these arguments?\n{}`]);
    expect(ran('test_simple_text')).toBe(1);
  });

  it('does not run it when the user declines or cancels, and says so', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const { c, asked, name } = await client(action);
      const tool = name('test_simple_text');
      const error = await refusal(c, tool);
      expect(asked).toHaveLength(1);
      expect(error.code).toBe(-32600);
      expect(error.message).toContain(
        `the tool ${tool} was not run: it needs the user's confirmation (approval: confirm), and the user ${action === 'decline' ? 'declined' : 'cancelled'} it`,
      );
      expect(error.data).toMatchObject({ xp_code: 'AUTHORIZATION_INSUFFICIENT', approval: action });
    }
    expect(ran('test_simple_text')).toBe(1);
  });

  it('refuses a client that cannot be asked (no elicitation capability); the tool does not run', async () => {
    const { c, name } = await client(undefined);
    const error = await refusal(c, name('test_simple_text'));
    expect(error.message).toContain(
      'this MCP client declared no elicitation capability, so it cannot be asked',
    );
    expect(error.data).toMatchObject({ approval: 'unsupported' });
    expect(ran('test_simple_text')).toBe(1);
  });

  it('runs a tool without confirm at once, without asking', async () => {
    const { c, asked, name } = await client('decline');
    const result = await c.callTool({ name: name('test_image_content'), arguments: {} });
    expect(result.isError).not.toBe(true);
    expect(asked).toEqual([]);
    expect(ran('test_image_content')).toBe(1);
  });

  it('writes each refusal to the audit log as an approval refusal', () => {
    const lines = readFileSync(join(procs.dir, 'audit.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { tool: string; verdict: string; reason?: string });
    const simple = lines.filter((l) => l.tool.endsWith('test_simple_text'));
    expect(simple.map((l) => [l.verdict, l.reason])).toEqual([
      ['ok', undefined],
      ['refused', 'approval'],
      ['refused', 'approval'],
      ['refused', 'approval'],
    ]);
  });
});

describe('approvals across XProtocol: B asks the client of A’s face before its server runs the tool', () => {
  it('runs the tool once A’s client accepts the question B sent', async () => {
    const { c, asked, name } = await client('accept', acrossUrl);
    const result = await c.callTool({ name: name('test_simple_text'), arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
    // B names the tool by its XProtocol kind: that is what it serves.
    expect(asked).toEqual(['Run the tool com.test.conf.test_simple_text with these arguments?\n{}']);
    expect(ran('test_simple_text', metaB)).toBe(1);
  });

  it('does not run it when A’s client declines, or cannot be asked', async () => {
    const declining = await client('decline', acrossUrl);
    const declined = await refusal(declining.c, declining.name('test_simple_text'));
    expect(declining.asked).toHaveLength(1);
    // The face gives the endpoint's refusal as MCP error -32600; B's own words are in data.xp_message.
    expect(declined.code).toBe(-32600);
    expect(declined.data).toMatchObject({
      xp_code: 'AUTHORIZATION_INSUFFICIENT',
      xp_message:
        "the tool com.test.conf.test_simple_text was not run: it needs the user's confirmation (approval: confirm), and the user declined it",
      details: { approval: 'decline' },
    });
    const mute = await client(undefined, acrossUrl);
    const unasked = await refusal(mute.c, mute.name('test_simple_text'));
    expect(unasked.data).toMatchObject({
      xp_code: 'AUTHORIZATION_INSUFFICIENT',
      xp_message:
        "the tool com.test.conf.test_simple_text was not run: it needs the user's confirmation (approval: confirm), and the MCP client declared no elicitation capability, so it cannot be asked",
      details: { approval: 'unsupported' },
    });
    expect(ran('test_simple_text', metaB)).toBe(1);
  });
});
