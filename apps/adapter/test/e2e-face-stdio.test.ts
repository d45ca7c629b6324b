// The stdio MCP face held to JSON-RPC, against the built adapter bin in gateway mode (a real stdio
// MCP server behind it), with raw lines as a broken or hostile client would write them
// (docs/security.md, "The HTTP face", last paragraph): each refused line is answered with its
// JSON-RPC error (the SDK alone would drop it without an answer) and never reaches the server.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Processes } from './support/processes.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'servers', 'security-server.mjs');
const procs = new Processes();
let child: ChildProcess;
let effects: string;
const received: Record<string, unknown>[] = [];

beforeAll(async () => {
  const { url: relayUrl } = await procs.relay();
  await procs.keygen('stdio.key');
  effects = join(procs.dir, 'effects.txt');
  ({ child } = await procs.adapter(
    procs.file(
      'stdio.yml',
      `identity:
  key_file: ./stdio.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: fixture
    transport: stdio
    command: "'${process.execPath}' '${FIXTURE}'"
    env:
      FIXTURE_EFFECTS_FILE: ${effects}
    xprotocol_namespace: com.test.stdio
mcp_server:
  transport: stdio
  expose: [mcp_sources]
state_database: ./stdio-state.db
logging:
  level: warn
  format: json
`,
    ),
  ));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    received.push(JSON.parse(line) as Record<string, unknown>);
  });
  send(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  );
  await answer(0);
  send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
}, 90_000);
afterAll(async () => {
  await procs.close();
});

function send(line: string | Buffer): void {
  child.stdin!.write(Buffer.concat([Buffer.from(line), Buffer.from('\n')]));
}

/** The next message with `id` (`null` for errors that could not name one), waiting for it. */
async function answer(id: number | null): Promise<Record<string, unknown>> {
  for (;;) {
    const index = received.findIndex((m) => m.id === id);
    if (index !== -1) return received.splice(index, 1)[0]!;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const said = () => {
  try {
    return readFileSync(effects, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

describe('JSON-RPC strictness on the stdio face', () => {
  it('answers [] and a batch with -32600, and runs nothing of the batch', async () => {
    send('[]');
    expect((await answer(null)).error).toEqual({
      code: -32600,
      message:
        'Invalid Request: an empty batch ([]) holds no message; send a request, a notification or a response',
    });
    send(
      '[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"say","arguments":{"text":"batched"}}}]',
    );
    expect((await answer(null)).error).toEqual({
      code: -32600,
      message:
        'Invalid Request: a batch; the stdio face takes one JSON-RPC message per line (protocol revision 2025-06-18 and later have no batches)',
    });
  }, 60_000);

  it('answers invalid UTF-8 with -32700 and a lone surrogate with -32600; neither reaches the server', async () => {
    send(
      Buffer.concat([
        Buffer.from(
          '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"say","arguments":{"text":"a',
        ),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('"}}}'),
      ]),
    );
    const invalid = await answer(null);
    expect((invalid.error as { code: number; message: string }).code).toBe(-32700);
    expect((invalid.error as { message: string }).message).toMatch(
      /^Parse error: the body is not valid UTF-8/,
    );
    send(
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"say","arguments":{"text":"x\\ud800"}}}',
    );
    expect((await answer(5)).error).toEqual({
      code: -32600,
      message:
        'Invalid Request: the string at /params/arguments/text holds a lone surrogate (\\ud800), which is not Unicode text',
    });
    send('{"jsonrpc":"2.0","id":6}');
    expect((await answer(6)).error).toEqual({
      code: -32600,
      message: 'Invalid Request: a response has exactly one of result and error',
    });
    send(
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"say","arguments":{"text":"fine"}}}',
    );
    expect((await answer(7)).result).toMatchObject({ content: [{ type: 'text', text: 'fine' }] });
    expect(said()).toEqual(['said "fine"']);
  }, 60_000);
});
