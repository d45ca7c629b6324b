// The face's instructions at `initialize` end to end (docs/architecture.md, "Instructions"):
// adapter B wraps the real `@modelcontextprotocol/server-everything` (which gives instructions)
// and the conformance fixture, whose instructions B's configuration replaces
// (`mcp_sources[].instructions`); adapter A lists B's tools through a real relay
// (`xprotocol_sources`) and its face's `initialize` carries B's guidance, which came in B's
// catalog. The summary stands alone in its first 512 characters, and the text is the same bytes
// for every session. Adapter A2 lists the same endpoint with `xprotocol_sources[].instructions`:
// its face gives the operator's text in place of the catalog's.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceStdioBody } from './support/adapter-configs.js';
import { EVERYTHING_SERVER, freePort, Processes } from './support/processes.js';

const procs = new Processes();
const OVERRIDE = 'Use the conformance tools only for protocol checks. Each one answers at once.';
const XP_OVERRIDE = 'Use the tools of b for tests only. They answer at once and keep nothing.';
let faceUrl: string;
let overriddenUrl: string;
const clients: Client[] = [];

/** A new MCP session on A's face (or `url`'s): the instructions its `initialize` answered. */
async function initializeAnswer(url = faceUrl): Promise<string> {
  const client = new Client({ name: 'e2e-instructions', version: '0.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  const instructions = client.getInstructions();
  if (instructions === undefined) throw new Error('the face gave no instructions at initialize');
  return instructions;
}

beforeAll(async () => {
  const { url: relayUrl } = await procs.relay();
  const b = await procs.keygen('b.key');
  const a = await procs.keygen('a.key');
  await procs.adapter(
    procs.file(
      'b.yml',
      `identity:
  key_file: ./b.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: everything
    transport: stdio
    command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(EVERYTHING_SERVER)}, stdio]
    xprotocol_namespace: com.test.everything
  - name: conformance
${conformanceStdioBody()}
    xprotocol_namespace: com.test.conformance
    instructions: "${OVERRIDE}"
access:
  grants:
    - key: ${a.ed25519}
      capabilities: [com.test.everything.*, com.test.conformance.*]
state_database: ./b-state.db
logging:
  level: warn
  format: json
`,
    ),
  );
  const port = await freePort();
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
    mcp_tool_prefix: b_
mcp_server:
  transport: streamable_http
  port: ${port}
state_database: ./a-state.db
logging:
  level: warn
  format: json
`,
    ),
  );
  faceUrl = `http://127.0.0.1:${port}/mcp`;
  const port2 = await freePort();
  await procs.adapter(
    procs.file(
      'a2.yml',
      `identity:
  key_file: ./a.key
relay:
  urls: [${relayUrl}]
xprotocol_sources:
  - name: b
    key: ${b.ed25519}
    relay: ${relayUrl}
    mcp_tool_prefix: b_
    instructions: "${XP_OVERRIDE}"
mcp_server:
  transport: streamable_http
  port: ${port2}
state_database: ./a2-state.db
logging:
  level: warn
  format: json
`,
    ),
  );
  overriddenUrl = `http://127.0.0.1:${port2}/mcp`;
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await procs.close();
});

describe('the instructions of a face across XProtocol', () => {
  it("carry the endpoint's guidance from its catalog: a server's own, and the operator's in place of another's", async () => {
    const text = await initializeAnswer();
    expect(text).toContain('\n\n## b\n\n### everything\n\n# Everything Server – Server Instructions\n');
    expect(text).toContain(`### conformance\n\n${OVERRIDE}`);
    expect(text).not.toContain('The conformance fixture: every tool');
  }, 60_000);

  it('start with a summary that stands alone in the first 512 characters', async () => {
    const text = await initializeAnswer();
    const summary = text.slice(0, text.indexOf('\n\n'));
    expect(summary.length).toBeLessThanOrEqual(512);
    expect(summary).toMatch(/[.!?]$/);
    expect(summary).toMatch(/^This MCP server gathers the tools of one source: b \(tools named b_…\)\. /);
    expect(summary).toContain('search_tools');
  }, 60_000);

  it("give the operator's xprotocol_sources[].instructions in place of the catalog's", async () => {
    const text = await initializeAnswer(overriddenUrl);
    expect(text).toContain(`\n\n## b\n\n${XP_OVERRIDE}`);
    expect(text).not.toContain('Everything Server');
  }, 60_000);

  it('are the same bytes for every session', async () => {
    expect(await initializeAnswer()).toBe(await initializeAnswer());
  }, 60_000);
});
