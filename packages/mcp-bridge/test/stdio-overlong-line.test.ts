// A stdout line over the cap of a stdio upstream fails the one request it answers, by the "id" at
// the top level of that line (read while the line is skipped, wherever it sits), and nothing else:
// the session, its child and the calls in flight beside it go on. Real children: the
// overlong-answer fixture server (SDK v2, which writes "id" last) behind an UpstreamSession and
// behind an XpEndpoint on a real relay, and `node -e` scripts that write raw lines.
import { join } from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeError, UpstreamSession } from '../src/index.js';
import { StdioChildTransport, StdoutLineSkippedError } from '../src/upstream/stdio-transport.js';
import { recordingLogger } from './support/http-servers.js';
import { type Stack, startStack } from './support/stack.js';

const OVERLONG_SERVER = join(import.meta.dirname, 'fixtures', 'overlong-answer-server.mjs');
const MIB = 1024 * 1024;

const sessions: UpstreamSession[] = [];
const transports: StdioChildTransport[] = [];
let stack: Stack | undefined;
afterEach(async () => {
  await Promise.allSettled([...sessions.splice(0), ...transports.splice(0)].map((s) => s.close()));
  await stack?.close();
  stack = undefined;
});

const text = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]?.text;
const rejection = (call: Promise<unknown>) =>
  call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error as BridgeError,
  );

describe('a stdout line over the cap, from a real MCP server', () => {
  it('fails only the call it answers: the call in flight beside it completes, the session and its child stay', async () => {
    const logger = recordingLogger();
    const session = new UpstreamSession({
      name: 'overlong',
      transport: { type: 'stdio', command: [process.execPath, OVERLONG_SERVER] },
      logger,
    });
    sessions.push(session);
    await session.connect();
    const pid = session.pid;
    const held = session.callTool('hold', {}, { timeoutMs: 120_000 });
    held.catch(() => {}); // awaited below; a failure is reported there
    // 17 MiB of text: one line of a little more, over the 16 MiB cap.
    const error = await rejection(session.callTool('big', { bytes: 17 * MIB }, { timeoutMs: 120_000 }));
    expect(error).toBeInstanceOf(BridgeError);
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(error.message).toMatch(
      /^overlong: tools\/call big failed: the server's answer was a line of (\d+) bytes on stdout, over the limit of 16 MiB \(maxLineBytes 16777216\); it was dropped, and the session goes on$/,
    );
    const size = Number(/a line of (\d+) bytes/.exec(error.message)![1]);
    expect(size).toBeGreaterThan(17 * MIB);
    // The held call was in flight all along (the server answers it only on release): it completes.
    expect(text(await session.callTool('release', {}, { timeoutMs: 60_000 }))).toBe('released 1');
    expect(text(await held)).toBe('released');
    expect(session.pid).toBe(pid);
    expect(text(await session.callTool('echo', { text: 'still here' }, { timeoutMs: 60_000 }))).toBe(
      'still here',
    );
    const warning = logger.entries.find((e) => e.level === 'warn' && e.message.includes('skipped a line'));
    expect(warning?.message).toMatch(
      new RegExp(
        `^overlong: skipped a line of ${size} bytes on stdout, over the limit of 16 MiB \\(maxLineBytes 16777216\\): the answer to request \\d+, which fails alone; the session goes on$`,
      ),
    );
  }, 180_000);

  it('through the XProtocol endpoint: the big call gets its error, the call in flight beside it its answer', async () => {
    stack = await startStack({ command: [process.execPath, OVERLONG_SERVER] });
    const s = stack;
    const call = (kind: string, payload: unknown) =>
      s.caller.call({ to: s.adapter.keys, kind: `com.test.fs.${kind}`, payload, timeoutMs: 120_000 });
    const held = call('hold', {});
    held.catch(() => {}); // awaited below; a failure is reported there
    // The held request reaches the server before the big one is sent.
    await expect.poll(() => s.upstreamCalls(), { timeout: 60_000 }).toBe(1);
    const big = await call('big', { bytes: 17 * MIB });
    expect(big.ok).toBe(false);
    if (big.ok) return;
    expect(big.error.code).toBe('UPSTREAM_ERROR');
    expect(big.error.message).toMatch(
      /^fs: tools\/call big failed: the server's answer was a line of \d+ bytes on stdout, over the limit of 16 MiB/,
    );
    const released = await call('release', {});
    expect(released.ok && text(released.payload as Record<string, unknown>)).toBe('released 1');
    const answer = await held;
    expect(answer.ok, JSON.stringify(answer)).toBe(true);
    expect(text((answer as { payload: Record<string, unknown> }).payload)).toBe('released');
  }, 180_000);
});

/** A transport to `node -e script` with a 1 KiB cap, recording what it reports. */
function script(source: string, options: { maxSkippedLineBytes?: number } = {}) {
  const transport = new StdioChildTransport({
    source: 'scripted',
    command: process.execPath,
    args: ['-e', source],
    maxLineBytes: 1024,
    ...options,
  });
  transports.push(transport);
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  let closed = 0;
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error);
  transport.onclose = () => closed++;
  return { transport, messages, errors, closed: () => closed };
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('StdioChildTransport: which request an over-long line answers', () => {
  it('reads the top-level "id" wherever it sits, never one nested in the result or inside a string', async () => {
    // Four over-long answers (id first, id last, decoys before it, a string id), then a normal one.
    const { transport, messages, errors, closed } = script(`
      const pad = 'p'.repeat(3000);
      const w = (o) => process.stdout.write(o + '\\n');
      w('{"id":1,"jsonrpc":"2.0","result":{"text":"' + pad + '"}}');
      w('{"result":{"text":"' + pad + '"},"jsonrpc":"2.0","id":2}');
      w('{"result":{"id":98,"items":[{"id":99}],"text":"\\\\"id\\\\":97 ' + pad + '"},"jsonrpc":"2.0","id" : 3 }');
      w('{"jsonrpc":"2.0","error":{"code":-1,"message":"' + pad + '"},"id":"four"}');
      w('{"jsonrpc":"2.0","id":5,"result":{}}');
      setInterval(() => {}, 1 << 30);
    `);
    await transport.start();
    await until('five messages', () => messages.length === 5);
    expect(messages.map((m) => (m as { id: unknown }).id)).toEqual([1, 2, 3, 'four', 5]);
    for (const message of messages.slice(0, 4)) {
      expect(message).toMatchObject({
        jsonrpc: '2.0',
        error: {
          code: -32603,
          message: expect.stringMatching(
            /^the server's answer was a line of \d+ bytes on stdout, over the limit of 1 KiB \(maxLineBytes 1024\); it was dropped, and the session goes on$/,
          ),
          data: { xp_code: 'TOO_LARGE', limit: 1024, size: expect.any(Number) },
        },
      });
    }
    expect(messages[4]).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
    expect(errors).toHaveLength(4);
    expect(errors.every((e) => e instanceof StdoutLineSkippedError)).toBe(true);
    expect(errors[2]!.message).toMatch(
      /^scripted: skipped a line of \d+ bytes on stdout, over the limit of 1 KiB \(maxLineBytes 1024\): the answer to request 3, which fails alone; the session goes on$/,
    );
    expect(closed()).toBe(0);
    expect(transport.failure).toBeUndefined();
  }, 60_000);

  it('fails no request for an over-long line without a top-level id, or one that is not JSON; answers a server request with an error', async () => {
    const { transport, messages, errors, closed } = script(`
      const pad = 'p'.repeat(3000);
      const w = (o) => process.stdout.write(o + '\\n');
      w('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"' + pad + '"}}');
      w('{"jsonrpc":"2.0","result":{"text":"' + pad + '"}}');
      w('[{"jsonrpc":"2.0","id":6,"result":{"text":"' + pad + '"}}]');
      w('not json ' + pad);
      w('{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"text":"' + pad + '"}}');
      // What the client answered to that request comes back as a notification.
      let input = '';
      process.stdin.on('data', (chunk) => {
        input += chunk;
        if (input.includes('\\n')) w(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/echo', params: JSON.parse(input.split('\\n')[0]) }));
      });
    `);
    await transport.start();
    await until('the echoed answer', () => messages.length === 1);
    expect(messages[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/echo',
      params: {
        jsonrpc: '2.0',
        id: 's1',
        error: {
          code: -32600,
          message: expect.stringMatching(
            /^the request was a line of \d+ bytes on stdout, over the client's limit of 1 KiB \(maxLineBytes 1024\)$/,
          ),
        },
      },
    });
    expect(
      errors.map((e) =>
        e.message.replace(
          /^scripted: skipped a line of \d+ bytes on stdout, over the limit of 1 KiB \(maxLineBytes 1024\): /,
          '',
        ),
      ),
    ).toEqual([
      'a notification of the server (no "id"); no request fails',
      'no top-level "id" in it, so no request fails; the session goes on',
      'no top-level "id" in it, so no request fails; the session goes on',
      'no top-level "id" in it, so no request fails; the session goes on',
      'a request of the server (id "s1"), answered with error -32600',
    ]);
    expect(closed()).toBe(0);
  }, 60_000);

  it('a line still without a newline past maxSkippedLineBytes closes the transport, as a server that writes no lines', async () => {
    const { transport, errors, closed } = script(
      `process.stdout.write('{"jsonrpc":"2.0","id":1,"result":"' + 'y'.repeat(20000)); setInterval(() => {}, 1 << 30);`,
      { maxSkippedLineBytes: 8192 },
    );
    await transport.start();
    await until('the transport to close', () => closed() === 1);
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(
        /^scripted: the server wrote a line on stdout longer than the limit of 1 KiB \(maxLineBytes 1024\) and no newline within 8 KiB \(maxSkippedLineBytes 8192\): received \d+ bytes without a newline; the connection is closed and the server ended$/,
      ),
    ]);
  }, 60_000);
});
