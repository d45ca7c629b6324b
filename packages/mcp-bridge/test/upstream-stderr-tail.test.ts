// What a stdio child wrote on stderr before it exited, as an error shows it: the stderr tail
// (unit, on a stream) and the session's error for a real child that exits before the handshake —
// bounded, without the values of its env, and npm's E404 refused for good.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeError, UpstreamSession } from '../src/index.js';
import {
  _StderrTail,
  STDERR_LINE_CHARS,
  STDERR_TAIL_BYTES,
  STDERR_TAIL_LINES,
} from '../src/upstream/stderr-tail.js';
import { recordingLogger } from './support/http-servers.js';

/** Writes `chunks` to a tail and ends the stream; resolves with the tail once it has read all. */
async function tailOf(
  chunks: string[],
  secrets: string[] = [],
): Promise<{ tail: _StderrTail; seen: string[] }> {
  const stream = new PassThrough();
  const seen: string[] = [];
  const tail = new _StderrTail(stream, secrets, (line) => seen.push(line));
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  await tail.settled(5000);
  return { tail, seen };
}

describe('the stderr tail', () => {
  it(`keeps the last ${STDERR_TAIL_LINES} lines, joining lines split across chunks`, async () => {
    const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}\n`).join('');
    const { tail, seen } = await tailOf([text.slice(0, 7), text.slice(7, 100), text.slice(100)]);
    expect(seen).toHaveLength(30);
    expect(tail.lines()).toEqual(Array.from({ length: 20 }, (_, i) => `line ${i + 11}`));
  });

  it(`keeps at most ${STDERR_TAIL_BYTES} bytes, cuts a line at ${STDERR_LINE_CHARS} characters, keeps a last line without a newline`, async () => {
    const long = 'x'.repeat(3000);
    const { tail } = await tailOf([`${long}\n`.repeat(6), 'the end']);
    const lines = tail.lines();
    expect(lines.at(-1)).toBe('the end');
    expect(lines[0]).toBe(`${'x'.repeat(STDERR_LINE_CHARS - 1)}…`);
    expect(lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0)).toBeLessThanOrEqual(STDERR_TAIL_BYTES);
    expect(lines).toHaveLength(5);
  });

  it('removes colours and control characters, and keeps what a carriage return left last', async () => {
    const { tail } = await tailOf([
      '\u001b[31mnpm error\u001b[0m code E404\u0007\n',
      'fetching 10%\rfetching 100%\r\n',
    ]);
    expect(tail.lines()).toEqual(['npm error code E404', 'fetching 100%']);
  });

  it('never shows a secret: whole, split across chunks, or in a line too long to be read whole', async () => {
    const secret = 'tok-ABCDEFGHIJ';
    const { tail, seen } = await tailOf(
      [
        'token=tok-ABC',
        'DEFGHIJ ok\n',
        `${'y'.repeat(8190)}${secret}`,
        `${'z'.repeat(100)}\n`,
        `short ${secret.slice(0, 3)} stays\n`,
      ],
      [secret],
    );
    expect([...tail.lines(), ...seen].join('\n')).not.toContain('tok-A');
    expect(tail.lines()).toEqual([
      'token=[redacted] ok',
      '(a line of more than 8192 characters, not shown)',
      // Three characters of it are no secret: kept.
      'short tok stays',
    ]);
  });
});

describe('a real child that exits before the MCP handshake', () => {
  const dirs: string[] = [];
  const sessions: UpstreamSession[] = [];
  afterEach(async () => {
    await Promise.allSettled(sessions.splice(0).map((s) => s.close()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function rejection(promise: Promise<unknown>): Promise<BridgeError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BridgeError);
    return error as BridgeError;
  }

  it('is described by its exit and its last stderr lines, without the values of its env', async () => {
    const script = [
      "for (let i = 1; i <= 25; i++) console.error('line ' + i);",
      "console.error('the key is ' + process.env.API_KEY);",
      'process.exit(2);',
    ].join('\n');
    const session = new UpstreamSession({
      name: 'noisy',
      transport: {
        type: 'stdio',
        command: [process.execPath, '-e', script],
        env: { API_KEY: 'k-secret-123' },
      },
    });
    sessions.push(session);
    const error = await rejection(session.connect());
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    const [head, ...stderr] = error.message.split('\n');
    expect(head).toMatch(
      /^noisy: cannot connect to the command ".*node.*": it exited with exit code 2 before the MCP handshake$/,
    );
    expect(stderr).toEqual([
      ...Array.from({ length: 19 }, (_, i) => `  stderr: line ${i + 7}`),
      '  stderr: the key is [redacted]',
    ]);
    expect(error.message).not.toContain('k-secret-123');
  });

  it('npm E404 is UPSTREAM_CANNOT_START with npm lines, and the command is never started again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xp-e404-'));
    dirs.push(dir);
    const starts = join(dir, 'starts');
    const script = [
      `require('node:fs').appendFileSync(${JSON.stringify(starts)}, 'x\\n');`,
      "console.error('npm error code E404');",
      "console.error('npm error 404 Not Found - GET https://registry.npmjs.org/@modelcontextprotocol%2fserver-memroy');",
      'process.exit(1);',
    ].join('\n');
    const logger = recordingLogger();
    const session = new UpstreamSession({
      name: 'memory',
      transport: { type: 'stdio', command: [process.execPath, '-e', script] },
      minReconnectMs: 1,
      logger,
      supervise: { minRestartMs: 1 },
    });
    sessions.push(session);
    const error = await rejection(session.listTools());
    expect(error.code).toBe('UPSTREAM_CANNOT_START');
    expect(error.message).toBe(
      [
        'memory: npm cannot find the package: it is not in the npm registry (npm error code E404); check the package name in the command (a private package also needs `npm login`)',
        '  stderr: npm error code E404',
        '  stderr: npm error 404 Not Found - GET https://registry.npmjs.org/@modelcontextprotocol%2fserver-memroy',
      ].join('\n'),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(await rejection(session.listTools())).toBe(error);
    expect(readFileSync(starts, 'utf8')).toBe('x\n');
  });
});
