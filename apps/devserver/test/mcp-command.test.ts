// `xprotocol-devserver --mcp-command … --relay-port 0` as a real child process: banner, event log,
// a call through XpCaller over its relay with the devserver's own key (a fresh key and a web page
// are refused), the --mcp-proxy MCP face, and a clean stop on SIGTERM.
import { realpathSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createEventTemplate, generateIdentity, signEvent } from '@xprotocol/crypto';
import { type Identity, nodeCipher, nodeSignatures, readKeyFile } from '@xprotocol/crypto/node';
import { XpCaller } from '@xprotocol/mcp-bridge';
import { RelayPool } from '@xprotocol/relay-client';
import { freePort } from '@xprotocol/test-ports';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { _quoteCommandLine } from '../src/_command-quote.js';
import { alive, type Child, childPids, DEVSERVER_BIN, FS_SERVER, Sandbox } from './support/children.js';

const sandbox = new Sandbox();
const TEXT = 'read through the devserver\n';
let dev: Child;
let relayUrl: string;
let adapterKey: string;

beforeAll(async () => {
  sandbox.file('hello.txt', TEXT);
  dev = sandbox.spawn([
    '--mcp-command',
    _quoteCommandLine([process.execPath, FS_SERVER, sandbox.dir]),
    '--namespace',
    'com.demo.fs',
    '--relay-port',
    '0',
  ]);
  await dev.waitForStderr(/"mcpServers"/);
  relayUrl = dev.stderr.match(/✓ Local relay: (ws:\/\/127\.0\.0\.1:(\d+))/)![1]!;
  adapterKey = dev.stderr.match(/✓ Adapter key: (ed25519:[0-9a-f]{64})/)![1]!;
}, 60_000);
afterAll(() => sandbox.close());

/** The Claude Code / Claude Desktop snippet of the banner, as a user pastes it. */
function snippet(): { mcpServers: { xprotocol: { command: string; args: string[] } } } {
  return JSON.parse(dev.stderr.match(/^\{"mcpServers".*$/m)![0]);
}

describe('xprotocol-devserver --mcp-command', () => {
  it('prints the banner (docs/design.md §14) on stderr and nothing on stdout; it grants no key but its own', () => {
    expect(dev.stderr).toContain('✓ XProtocol DevServer started');
    expect(dev.stderr).toMatch(/✓ Wrapped MCP server: com\.demo\.fs \(\d+ tools\)/);
    expect(dev.stderr).toContain(`(${sandbox.path('.xprotocol/devserver/adapter.key')})`);
    expect(dev.stderr).toContain(`(events in ${sandbox.path('.xprotocol/devserver/events.db')})`);
    // Absolute paths (no global install needed) and no port: --relay-port 0 picks a new one each run.
    expect(snippet()).toEqual({
      mcpServers: {
        xprotocol: { command: process.execPath, args: [realpathSync(DEVSERVER_BIN), '--mcp-proxy'] },
      },
    });
    expect(dev.stderr).not.toContain('access.default: "allow"');
    expect(dev.stderr).not.toContain('ACCESS_NO_GRANTS');
    expect(dev.stdout).toBe('');
  });

  /** One call of read_text_file through the devserver's relay, signed by `identity`. */
  async function readThroughRelay(identity: Identity) {
    const backends = { signatures: nodeSignatures, cipher: nodeCipher };
    const pool = await RelayPool.open({ urls: [relayUrl] });
    try {
      const caller = new XpCaller({ identity, pool, ...backends });
      const to = await caller.resolve(adapterKey, 15_000);
      return await caller.call({
        to: to.keys,
        kind: 'com.demo.fs.read_text_file',
        payload: { path: sandbox.path('hello.txt') },
        timeoutMs: 15_000,
      });
    } finally {
      await pool.close();
    }
  }

  it('serves the well-known document and the schema catalog over HTTP on loopback, as its banner says', async () => {
    const base = dev.stderr.match(
      /✓ Well-known: (http:\/\/127\.0\.0\.1:\d+)\/\.well-known\/xprotocol-endpoint and \1\/xp\/schemas/,
    )?.[1];
    expect(base, dev.stderr).toBeDefined();
    const document = (await (await fetch(`${base}/.well-known/xprotocol-endpoint`)).json()) as Record<
      string,
      unknown
    >;
    expect(document).toMatchObject({
      version: 'xp1',
      public_key: adapterKey,
      relays: [relayUrl],
      adapter: true,
      mcp_sources: ['mcp'],
      schema_url: `${base}/xp/schemas`,
    });
    const catalog = (await (await fetch(`${base}/xp/schemas`)).json()) as { contracts: { kind: string }[] };
    expect(catalog.contracts.map((c) => c.kind)).toContain('com.demo.fs.read_text_file');
  });

  it('with its well-known port (the one after the relay port) taken, exits 1 saying what to do', async () => {
    // A free relay port whose next port we can hold (tried a few times: another program may hold
    // it). freePort picks below the ephemeral range, so no outbound connection takes it before the
    // devserver binds it.
    for (let attempt = 0; ; attempt++) {
      const relayPort = await freePort();
      const holder = createServer();
      const held = await new Promise<boolean>((resolve) => {
        holder.once('error', () => resolve(false));
        holder.listen(relayPort + 1, '127.0.0.1', () => resolve(true));
      });
      if (!held) {
        if (attempt < 5) continue;
        throw new Error('no free pair of ports found');
      }
      try {
        const { code, stderr } = await sandbox.run([
          '--mcp-command',
          _quoteCommandLine([process.execPath, FS_SERVER, sandbox.dir]),
          '--relay-port',
          String(relayPort),
          '--no-console',
          '--db',
          sandbox.path('taken.db'),
        ]);
        expect(code, stderr).toBe(1);
        expect(stderr).toContain(
          `xprotocol-devserver: cannot serve the well-known document: 127.0.0.1:${relayPort + 1} is already in use (the port after the relay's); choose another --relay-port, or 0 for any free ports`,
        );
      } finally {
        holder.close();
      }
      return;
    }
  }, 90_000);

  it('refuses a call from a key it did not make: deny by default, its own clients only', async () => {
    const stranger = generateIdentity({ signatures: nodeSignatures, cipher: nodeCipher });
    const outcome = await readThroughRelay(stranger);
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error.code).toBe('AUTHORIZATION_INSUFFICIENT');
  });

  it('refuses a web page: a WebSocket upgrade with a browser Origin gets 403 from its relay', async () => {
    // What a page's `new WebSocket(...)` sends: the upgrade request with the page's Origin.
    const status = await new Promise<number>((resolve, reject) => {
      const upgrade = request(relayUrl.replace(/^ws:/, 'http:'), {
        headers: {
          Connection: 'Upgrade',
          Upgrade: 'websocket',
          'Sec-WebSocket-Version': '13',
          'Sec-WebSocket-Key': Buffer.from('a page on the web').toString('base64'),
          Origin: 'http://attacker.example',
        },
      });
      upgrade.on('upgrade', (_response, socket) => {
        socket.destroy();
        resolve(101);
      });
      upgrade.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      upgrade.on('error', reject);
      upgrade.end();
    });
    expect(status).toBe(403);
  });

  it('serves a call from its --mcp-proxy key through its relay (XpCaller: resolve, seal, publish, answer) and logs it', async () => {
    const identity = await readKeyFile(sandbox.path('.xprotocol/devserver/proxy.key'), {
      signatures: nodeSignatures,
      cipher: nodeCipher,
    });
    const outcome = await readThroughRelay(identity);
    expect(outcome.ok && (outcome.payload as { content: { text: string }[] }).content[0]!.text).toBe(TEXT);
    const caller8 = identity.keys.ed25519.slice(8, 16);
    const adapter8 = adapterKey.slice(8, 16);
    await dev.waitForStderr(new RegExp(`com\\.demo\\.fs\\.read_text_file +${caller8} → ${adapter8} .* OK`));
    await dev.waitForStderr(
      new RegExp(`com\\.demo\\.fs\\.read_text_file\\.result +${adapter8} → ${caller8} .* OK`),
    );
    expect(dev.stderr).not.toContain(TEXT.trim());
  });

  it('reports an event the relay refused (tampered after signing) with its kind, sender and reason', async () => {
    const identity = generateIdentity({ signatures: nodeSignatures, cipher: nodeCipher });
    const signed = signEvent(
      createEventTemplate({
        kind: 'com.demo.fs.read_text_file',
        content: 'sealed',
        tags: [['p', adapterKey]],
      }),
      identity.ed25519.secretKey,
      nodeSignatures,
    );
    const pool = await RelayPool.open({ urls: [relayUrl] });
    try {
      await expect(pool.publish({ ...signed, content: 'tampered' })).rejects.toThrow(/invalid/);
      await dev.waitForStderr(
        new RegExp(
          `com\\.demo\\.fs\\.read_text_file +${identity.keys.ed25519.slice(8, 16)} +refused: invalid: `,
        ),
      );
    } finally {
      await pool.close();
    }
  });

  it('the pasted --mcp-proxy snippet serves its tools over MCP stdio to an SDK client, through the relay', async () => {
    const { command, args } = snippet().mcpServers.xprotocol;
    const transport = new StdioClientTransport({
      command,
      args,
      cwd: sandbox.dir,
      env: { PATH: process.env.PATH ?? '', HOME: sandbox.dir, NO_COLOR: '1' },
      stderr: 'pipe',
    });
    const mcp = new Client({ name: 'devserver-test', version: '0.0.0' }, { capabilities: {} });
    await mcp.connect(transport);
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).toContain('read_text_file');
      const result = await mcp.callTool({
        name: 'read_text_file',
        arguments: { path: sandbox.path('hello.txt') },
      });
      expect((result.content as { text: string }[])[0]!.text).toBe(TEXT);
    } finally {
      await mcp.close();
    }
  });

  it('a --mcp-proxy whose client hangs up exits 0 and warns of nothing; its session end reaches the relay', async () => {
    const proxy = sandbox.spawn(['--mcp-proxy']);
    const answered = (id: number) =>
      vi.waitFor(() => expect(proxy.stdout).toMatch(new RegExp(`"id":${id}[,}]`)), {
        timeout: 60_000,
        interval: 50,
      });
    const sessionEnds = () => (dev.stderr.match(/xp\.mcp\.session\.end +\S+ → \S+ .* OK$/gm) ?? []).length;
    const endsBefore = sessionEnds();
    const send = (message: object) => proxy.process.stdin!.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'hang-up', version: '0' },
      },
    });
    await answered(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // A call opens the client's MCP session at the devserver's adapter, across the relay.
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'read_text_file', arguments: { path: sandbox.path('hello.txt') } },
    });
    await answered(2);
    expect(proxy.stdout).toContain('read through the devserver');
    proxy.process.stdin!.end();
    const { code } = await proxy.exited;
    expect(code, proxy.stderr).toBe(0);
    // Before: "WARN a session message was not published kind=xp.mcp.session.end error=the relay
    // pool closed; the event stays in the outbox" on every clean exit.
    expect(proxy.stderr).toBe('');
    await vi.waitFor(() => expect(sessionEnds()).toBe(endsBefore + 1), { timeout: 30_000, interval: 50 });
  }, 90_000);

  it('stops cleanly on SIGTERM: exit 0, its MCP server child ended', async () => {
    const pid = dev.process.pid!;
    const children = childPids(pid);
    expect(children.length).toBeGreaterThan(0);
    dev.process.kill('SIGTERM');
    const { code } = await dev.exited;
    expect(code, dev.stderr).toBe(0);
    expect(dev.stderr).toMatch(/SIGTERM: stopping\nstopped\n$/);
    for (const child of children) expect(alive(child), `child ${child}`).toBe(false);
  });
});
