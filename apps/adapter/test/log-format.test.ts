// Which log format a run uses and how a record reads for people: the decision (pure, every
// combination), the pretty line (unit), and real `xprotocol-adapter start` processes — a pipe gets
// JSON by default, `--log-format pretty` and `logging.format: pretty` get readable lines, and
// `--log-format json` wins over the file.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { _colourFor, _prettyLine, chooseLogFormat } from '../src/runtime/log-format.js';
import { ADAPTER_BIN, Processes } from './support/processes.js';

describe('chooseLogFormat', () => {
  it.each([
    ['auto', true, 'pretty'],
    ['auto', false, 'json'],
    ['auto', undefined, 'json'],
    ['pretty', false, 'pretty'],
    ['pretty', true, 'pretty'],
    ['text', false, 'pretty'],
    ['json', true, 'json'],
    ['json', false, 'json'],
  ] as const)('%s with a terminal: %s → %s', (format, isTTY, expected) => {
    expect(chooseLogFormat(format, isTTY === undefined ? undefined : { isTTY })).toBe(expected);
  });

  it('colours only a terminal, and never with NO_COLOR set', () => {
    expect(_colourFor({ isTTY: true }, {})).toBe(true);
    expect(_colourFor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(_colourFor({ isTTY: false }, {})).toBe(false);
    expect(_colourFor(undefined, {})).toBe(false);
  });
});

describe('a pretty line', () => {
  const record = (fields: Record<string, unknown>) =>
    JSON.stringify({ level: 40, time: '2026-01-02T03:04:05.678Z', ...fields });

  it('time, level, message, then the fields the message does not already say', () => {
    expect(
      _prettyLine(
        record({
          source: 's',
          retryInSeconds: 8,
          attempt: 4,
          pid: 42,
          msg: 'cannot reach MCP source "s": down; retrying in 8 s (attempt 4)',
        }),
        false,
      ),
    ).toBe('03:04:05 WARN  cannot reach MCP source "s": down; retrying in 8 s (attempt 4) pid=42\n');
  });

  it("indents a message's further lines under it, and shows only the first line of a field", () => {
    expect(
      _prettyLine(
        record({
          sources: [{ name: 's', error: 's: it exited\n  stderr: npm error code E404' }],
          msg: 'cannot start\n  stderr: npm error code E404\n  stderr: npm error 404',
        }),
        false,
      ),
    ).toBe(
      [
        '03:04:05 WARN  cannot start sources=[{"name":"s","error":"s: it exited …"}]',
        '               stderr: npm error code E404',
        '               stderr: npm error 404',
        '',
      ].join('\n'),
    );
  });

  it('colours the level on a terminal; passes a line that is not JSON through', () => {
    expect(_prettyLine(record({ level: 50, msg: 'x' }), true)).toBe(
      '\u001b[2m03:04:05\u001b[0m \u001b[31mERROR\u001b[0m x\n',
    );
    expect(_prettyLine('not json', false)).toBe('not json\n');
  });
});

describe('xprotocol-adapter start (the built bin), with stderr a pipe', () => {
  const procs = new Processes();
  afterAll(() => procs.close());

  /** Starts the adapter; resolves with its stderr lines once it logged that it is ready. */
  async function started(configPath: string, extra: string[] = []): Promise<string[]> {
    const child = spawn(process.execPath, [ADAPTER_BIN, 'start', '--config', configPath, ...extra], {
      cwd: procs.dir,
      env: { ...process.env, HOME: join(procs.dir, 'home') },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    procs.children.push(child);
    const lines: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready after 60 s:\n${lines.join('\n')}`)), 60_000);
      createInterface({ input: child.stderr! }).on('line', (line) => {
        lines.push(line);
        if (line.includes('adapter ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}:\n${lines.join('\n')}`)));
    });
    child.kill('SIGTERM');
    return lines;
  }

  const config = async (name: string, logging = '') => {
    const { path } = await procs.keygen(`${name}.key`);
    return procs.file(
      `${name}.yml`,
      `identity:\n  key_file: ${path}\nrelay:\n  urls: [ws://127.0.0.1:9]\naccess:\n  default: deny\n${logging}`,
    );
  };
  const pretty = /^\d\d:\d\d:\d\d (INFO |WARN |ERROR) \S/;

  it('writes JSON lines by default', async () => {
    const lines = await started(await config('default'));
    const ready = lines.find((l) => l.includes('adapter ready'))!;
    expect(JSON.parse(ready)).toMatchObject({ level: 30, event: 'ready', msg: 'adapter ready' });
  }, 90_000);

  it('--log-format pretty writes readable lines, no JSON', async () => {
    const lines = await started(await config('flag'), ['--log-format', 'pretty']);
    const logged = lines.filter((l) => !l.startsWith('warning: '));
    expect(logged.length).toBeGreaterThan(2);
    for (const line of logged) expect(line).toMatch(pretty);
    expect(logged.find((l) => l.includes('adapter ready'))).toMatch(
      /^\d\d:\d\d:\d\d INFO {2}adapter ready key=ed25519:[0-9a-f]{64} relays=\["ws:\/\/127\.0\.0\.1:9"\]/,
    );
    expect(logged.find((l) => l.includes('cannot reach relay'))).toMatch(
      /^\d\d:\d\d:\d\d WARN {2}cannot reach relay ws:\/\/127\.0\.0\.1:9: connect ECONNREFUSED 127\.0\.0\.1:9; retrying in [\d.]+ s$/,
    );
  }, 90_000);

  it('logging.format: pretty in the file; --log-format json wins over it', async () => {
    const file = await config('file', 'logging:\n  format: pretty\n');
    const fromFile = await started(file);
    expect(fromFile.find((l) => l.includes('adapter ready'))).toMatch(pretty);
    const overridden = await started(file, ['--log-format', 'json']);
    expect(JSON.parse(overridden.find((l) => l.includes('adapter ready'))!).event).toBe('ready');
  }, 90_000);
});
