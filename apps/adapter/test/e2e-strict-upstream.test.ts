// The adapter against a strict MCP 2026-07-28 server written by hand from the specification
// (mcp-bridge's test/fixtures/strict-2026-server.mjs: no SDK, every request's `_meta` envelope and
// MCP-Protocol-Version / Mcp-Method / Mcp-Name headers checked), as a Streamable HTTP upstream:
// - `mcp_revision: 2026-07-28` and `auto` connect, and a 2026-07-28 client's calls through the
//   gateway work, the input-required round trip included;
// - default (2025-11-25) links to a server that serves only 2025-11-25 sessions send that
//   revision's headers, never the face client's `MCP-Protocol-Version: 2026-07-28`;
// - a server that refuses every envelope: the source says the server's own error in the log
//   (once), in `status` and in the first call's error, and connects once the server accepts,
//   without restarting the adapter.
// See docs/config.md (`mcp_revision`) and docs/architecture.md, "Two MCP revisions".
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayConfig } from './support/adapter-configs.js';
import { freePort, Processes, STRICT_2026_SERVER } from './support/processes.js';

const procs = new Processes();
/** The gateway's URL, by the `mcp_revision` its source is given. */
const faces: Record<'2026-07-28' | 'auto', string> = { '2026-07-28': '', auto: '' };
/** A gateway with default links in front of a server that serves only 2025-11-25 sessions. */
let legacyFace = '';
/** The gateway in front of the server that refuses every envelope, its config and its logs. */
let refusing = { face: '', config: '', control: '', logs: [] as string[] };
let relayUrl = '';
/** `server/discover` requests the strict servers received (the refusing one's, once the others connected). */
let probes = 0;

const SERVER_ERROR = /-32602.*missing _meta/;

async function gateway(name: string, url: string, revision: string | undefined) {
  const port = await freePort();
  const config = procs.file(
    `${name}.yml`,
    gatewayConfig({
      keyFile: './a.key',
      relayUrl,
      sources: [
        {
          name: 'strict',
          body: `    transport: streamable_http\n    url: ${url}${revision ? `\n    mcp_revision: "${revision}"` : ''}`,
          namespace: 'com.test.strict',
        },
      ],
      face: { port },
      stateDatabase: `./${name}.db`,
    }),
  );
  const { logs } = await procs.adapter(config);
  return { face: `http://127.0.0.1:${port}/mcp`, config, logs };
}

/** Starts the strict server; `probes` counts the `server/discover` requests it received. */
async function strictServer(args: string[]): Promise<string> {
  const { child, firstLine } = await procs.node(STRICT_2026_SERVER, args, { STRICT_TRACE: '1' });
  child.stderr!.on('data', (chunk: Buffer) => {
    probes += chunk.toString().split('"mcp-method":"server/discover"').length - 1;
  });
  return (JSON.parse(firstLine) as { url: string }).url;
}

beforeAll(async () => {
  ({ url: relayUrl } = await procs.relay());
  await procs.keygen('a.key');
  const modern = await strictServer([]);
  faces['2026-07-28'] = (await gateway('pinned', modern, '2026-07-28')).face;
  faces.auto = (await gateway('auto', modern, 'auto')).face;
  legacyFace = (await gateway('legacy', await strictServer(['--revisions', '2025']), undefined)).face;
  const refusingUrl = await strictServer(['--refuse-envelope']);
  refusing = {
    ...(await gateway('refusing', refusingUrl, 'auto')),
    control: new URL('/control', refusingUrl).href,
  };
}, 180_000);
afterAll(() => procs.close());

/** A 2026-07-28 client of `url` whose elicitation handler accepts with `{ok: true}`. */
async function modernClient(url: string) {
  const asked: string[] = [];
  const client = new Client(
    { name: 'strict-test', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(String(request.params.message));
    return { action: 'accept', content: { ok: true } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, asked };
}

const text = (result: { content?: unknown }) => (result.content as { text?: string }[])[0]?.text;

/** Polls `attempt` until it returns a value; bounded so a hang fails the test. */
async function until<T>(what: string, attempt: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (${String(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('a strict 2026-07-28 server as an upstream', () => {
  for (const revision of ['2026-07-28', 'auto'] as const) {
    it(`mcp_revision ${revision}: tools are listed and called through the gateway, input-required round trip included`, async () => {
      const { client, asked } = await modernClient(faces[revision]);
      try {
        const { tools } = await client.listTools();
        const names = tools.map((tool) => tool.name);
        expect(names).toEqual(expect.arrayContaining(['echo', 'add', 'confirm_action']));
        expect(text(await client.callTool({ name: 'echo', arguments: { text: 'strict' } }))).toBe('strict');
        expect(text(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
        const confirmed = await client.callTool({ name: 'confirm_action', arguments: { action: 'deploy' } });
        expect(text(confirmed)).toBe('deploy: confirmed');
        expect(asked).toEqual(['Confirm: deploy?']);
        const prompts = await client.listPrompts();
        expect(prompts.prompts.map((prompt) => prompt.name)).toContain('greeting');
        const read = await client.readResource({ uri: 'strict://notes/first' });
        expect(read.contents[0]).toMatchObject({ text: 'the first note' });
      } finally {
        await client.close();
      }
    });
  }

  it('default links send the link revision’s headers, never the 2026-07-28 client’s', async () => {
    const { client } = await modernClient(legacyFace);
    try {
      expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toContain('greeting');
      expect((await client.listResources()).resources.map((resource) => resource.uri)).toContain(
        'strict://notes/first',
      );
      expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
      const completion = await client.complete({
        ref: { type: 'ref/prompt', name: 'greeting' },
        argument: { name: 'who', value: 'A' },
      });
      expect(completion.completion.values).toEqual([]);
      expect(text(await client.callTool({ name: 'echo', arguments: { text: 'old' } }))).toBe('old');
    } finally {
      await client.close();
    }
  });

  it('a server that refuses the envelope: its own error in the log, the first call and status; connects once it accepts', async () => {
    const warned = await until('the warning with the server’s error', async () =>
      refusing.logs.find((line) => line.includes('"level":40') && SERVER_ERROR.test(line)),
    );
    expect(warned).toContain('strict');
    const { client } = await modernClient(refusing.face);
    try {
      const failed = await client.callTool({ name: 'echo', arguments: { text: 'x' } }).then(
        (result) => JSON.stringify(result),
        (error: Error) => error.message,
      );
      expect(failed).toMatch(SERVER_ERROR);
      const status = await procs.cli(['status', '--config', refusing.config, '--json']);
      expect(status.code, status.stderr).toBe(0);
      const source = (JSON.parse(status.stdout) as { sources: { name: string; last_error: string | null }[] })
        .sources[0]!;
      expect(source).toMatchObject({ name: 'strict', connected: false });
      expect(source.last_error).toMatch(SERVER_ERROR);
      // One warning per distinct reason, not one per retry (each retry probes again).
      const before = probes;
      await until('another connection attempt', async () => (probes > before ? true : undefined));
      const warnings = refusing.logs.filter(
        (line) => line.includes('cannot reach MCP source') && line.includes('"level":40'),
      );
      expect(warnings, warnings.join('\n')).toHaveLength(1);
      expect(warnings[0]).toMatch(SERVER_ERROR);

      const switched = await fetch(refusing.control, {
        method: 'POST',
        body: JSON.stringify({ refuseEnvelope: false }),
      });
      expect(switched.status).toBe(200);
      // Bounded by the longest retry delay (60 s) and a connection attempt.
      const echoed = await until(
        'a call once the server accepts',
        async () => {
          const result = await client
            .callTool({ name: 'echo', arguments: { text: 'back' } })
            .catch(() => undefined);
          return result && !result.isError ? text(result) : undefined;
        },
        150_000,
      );
      expect(echoed).toBe('back');
    } finally {
      await client.close();
    }
  }, 400_000);
});
