// StdioChildTransport against real child processes (`node -e` scripts and the fault fixture
// server): one stdout line is capped (a line that never ends closes the transport; one over the
// cap that ends is covered by stdio-overlong-line.test.ts), garbage lines are skipped, spawn
// errors keep their code, send() waits for the pipe. No timing thresholds.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeError, UpstreamSession } from '../src/index.js';
import { StdioChildTransport, StdoutLineTooLongError } from '../src/upstream/stdio-transport.js';
import { FIXTURE_SERVER, recordingLogger } from './support/http-servers.js';

const transports: StdioChildTransport[] = [];
const sessions: UpstreamSession[] = [];
afterEach(async () => {
  await Promise.allSettled([...transports.splice(0), ...sessions.splice(0)].map((t) => t.close()));
});

/** A transport to `node -e script`, recording what it reports. */
function script(source: string, options: { maxLineBytes?: number; maxSkippedLineBytes?: number } = {}) {
  const transport = new StdioChildTransport({
    source: 'scripted',
    command: process.execPath,
    args: ['-e', source],
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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('StdioChildTransport', () => {
  it('skips lines that are not JSON-RPC messages (reported, naming the source) and still delivers the next message', async () => {
    // A message split across writes, inside a multi-byte character, and one ending in \r\n.
    const { transport, messages, errors } = script(`
      const w = (s) => process.stdout.write(s);
      w('not json\\n');
      w('{"jsonrpc":"2.0","no":"method"}\\n');
      w('\\n');
      const bytes = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { text: 'caf\\u00e9' } }) + '\\n');
      const cut = bytes.indexOf(0xa9);
      w(bytes.subarray(0, cut));
      setTimeout(() => {
        w(bytes.subarray(cut));
        w('{"jsonrpc":"2.0","method":"notifications/second"}\\r\\n');
      }, 100);
      setInterval(() => {}, 1 << 30);
    `);
    await transport.start();
    await until('two messages', () => messages.length === 2);
    expect(messages).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { text: 'café' } },
      { jsonrpc: '2.0', method: 'notifications/second' },
    ]);
    expect(errors.map((e) => e.message)).toEqual([
      'scripted: skipped a line on stdout: expected a JSON-RPC message, received text that is not JSON (8 bytes: "not json")',
      'scripted: skipped a line on stdout: expected a JSON-RPC message, received JSON that is not a JSON-RPC message (31 bytes: "{\\"jsonrpc\\":\\"2.0\\",\\"no\\":\\"method\\"}")',
    ]);
  }, 60_000);

  it('a line over maxLineBytes with no newline within maxSkippedLineBytes is reported with both caps and what was received, and closes the transport (child ended)', async () => {
    const { transport, messages, errors, closed } = script(
      `process.stdout.write('{"jsonrpc":"2.0","method":"notifications/first"}\\n' + 'y'.repeat(5000)); setInterval(() => {}, 1 << 30);`,
      { maxLineBytes: 1024, maxSkippedLineBytes: 4096 },
    );
    await transport.start();
    const pid = transport.pid!;
    await until('the transport to close', () => closed() === 1);
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'notifications/first' }]);
    expect(errors).toHaveLength(1);
    const error = errors[0] as StdoutLineTooLongError;
    expect(error).toBeInstanceOf(StdoutLineTooLongError);
    expect(error.maxLineBytes).toBe(1024);
    expect(error.maxSkippedLineBytes).toBe(4096);
    expect(error.receivedBytes).toBeGreaterThan(4096);
    expect(error.message).toMatch(
      /^scripted: the server wrote a line on stdout longer than the limit of 1 KiB \(maxLineBytes 1024\) and no newline within 4 KiB \(maxSkippedLineBytes 4096\): received \d+ bytes without a newline; the connection is closed and the server ended$/,
    );
    expect(transport.failure).toBe(error);
    await until('the child to end', () => !alive(pid));
    await expect(transport.send({ jsonrpc: '2.0', method: 'ping', id: 1 })).rejects.toThrow(/not connected/);
  }, 60_000);

  it('an endless line from a session server: the call in flight fails naming the cap, memory stays bounded, the next call gets a new child', async () => {
    const logger = recordingLogger();
    const session = new UpstreamSession({
      name: 'endless',
      transport: { type: 'stdio', command: [process.execPath, FIXTURE_SERVER] },
      logger,
    });
    sessions.push(session);
    await session.connect();
    const pid = session.pid!;
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const error = await session.callTool('noisy', { kind: 'endless_line' }, { timeoutMs: 600_000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(error).toBeInstanceOf(BridgeError);
    const failure = error as BridgeError;
    expect(failure.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(failure.message).toMatch(
      /^endless: tools\/call noisy failed: endless: the server wrote a line on stdout longer than the limit of 16 MiB \(maxLineBytes 16777216\) and no newline within 256 MiB \(maxSkippedLineBytes 268435456\): received \d+ bytes/,
    );
    expect((failure.cause as StdoutLineTooLongError).receivedBytes).toBeGreaterThan(256 * 1024 * 1024);
    expect(
      logger.entries.some((e) => e.level === 'warn' && e.message.includes('longer than the limit of 16 MiB')),
    ).toBe(true);
    // Loose: the cap is 16 MiB; an unbounded buffer would keep growing while the child writes.
    // (Past the first cap the line is read and dropped, not kept.)
    expect(peak - before).toBeLessThan(200 * 1024 * 1024);
    await until('the child to end', () => !alive(pid));
    expect(
      (await session.callTool('echo', { text: 'again' }, { timeoutMs: 60_000 })).content as {
        text: string;
      }[],
    ).toEqual([{ type: 'text', text: 'again' }]);
    expect(session.pid).not.toBe(pid);
  }, 120_000);

  it('holds no more than the cap while a child writes more than 64 MiB without a newline', async () => {
    const cap = 80 * 1024 * 1024;
    const { transport, errors, closed } = script(
      `const c = Buffer.alloc(1 << 20, 'z'); const pump = () => { while (process.stdout.write(c)); process.stdout.once('drain', pump); }; pump();`,
      { maxLineBytes: cap, maxSkippedLineBytes: cap },
    );
    const before = process.memoryUsage().rss;
    let atError = 0;
    transport.onerror = (error) => {
      // Measured before the dropped line can be collected: the most this line ever held.
      atError = process.memoryUsage().rss;
      errors.push(error);
    };
    await transport.start();
    await until('the transport to close', () => closed() === 1);
    expect(errors).toHaveLength(1);
    expect((errors[0] as StdoutLineTooLongError).receivedBytes).toBeGreaterThan(64 * 1024 * 1024);
    // The line held (80 MiB) plus change: no copy of it per chunk.
    expect(atError - before).toBeLessThan(200 * 1024 * 1024);
  }, 120_000);

  it('a command that does not exist rejects start() with ENOENT (code and syscall kept)', async () => {
    const transport = new StdioChildTransport({ source: 'missing', command: 'xp-no-such-command-4a1b' });
    transports.push(transport);
    const error = await transport.start().then(
      () => undefined,
      (e: unknown) => e as NodeJS.ErrnoException,
    );
    expect(error?.code).toBe('ENOENT');
    expect(error?.syscall).toBe('spawn xp-no-such-command-4a1b');
    expect(transport.pid).toBeUndefined();
    await transport.close();
  });

  it('send() waits for the pipe to take the message, and fails instead of hanging when the child goes away', async () => {
    // The child reads nothing until SIGUSR1, then reads everything; it ends on SIGUSR2.
    const { transport } = script(`
      process.stdin.pause();
      process.on('SIGUSR1', () => process.stdin.resume());
      process.on('SIGUSR2', () => process.exit(0));
      process.stdout.write('{"jsonrpc":"2.0","method":"notifications/ready"}\\n');
      setInterval(() => {}, 1 << 30);
    `);
    let ready = false;
    transport.onmessage = () => {
      ready = true;
    };
    await transport.start();
    await until('the child to be ready', () => ready);
    const big = {
      jsonrpc: '2.0',
      method: 'notifications/big',
      params: { blob: 'b'.repeat(4 * 1024 * 1024) },
    } as const;
    let sent = false;
    const first = transport.send(big).then(() => {
      sent = true;
    });
    // Far more than a pipe holds: it cannot be taken before the child reads.
    await new Promise((r) => setTimeout(r, 500));
    expect(sent).toBe(false);
    process.kill(transport.pid!, 'SIGUSR1');
    await first;
    expect(sent).toBe(true);

    // Now a child that stops reading and exits with a send pending.
    const { transport: stuck } = script(`
      process.stdin.pause();
      process.on('SIGUSR2', () => process.exit(0));
      setInterval(() => {}, 1 << 30);
    `);
    await stuck.start();
    const pending = stuck.send(big);
    process.kill(stuck.pid!, 'SIGUSR2');
    await expect(pending).rejects.toThrow(/before the message was written/);
  }, 60_000);
});
