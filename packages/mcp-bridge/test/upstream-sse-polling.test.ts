// UpstreamSession against the strict SSE polling server (test/fixtures/strict-sse-polling-server.mjs,
// a child process on loopback): a call whose stream the server closes after its priming event, and
// whose resumed connections it closes again while the result is not ready, is answered once; every
// resumption names the stream's last event id, and the call ran once.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamSession } from '../src/index.js';

const SERVER = join(import.meta.dirname, 'fixtures', 'strict-sse-polling-server.mjs');
const dir = mkdtempSync(join(tmpdir(), 'strict-sse-'));
const events = join(dir, 'events.jsonl');
let child: ChildProcess;
let url: string;
const sessions: UpstreamSession[] = [];

beforeAll(async () => {
  child = spawn(process.execPath, [SERVER, '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, XP_STRICT_EVENTS: events, XP_STRICT_HOLD_MS: '500', XP_STRICT_RETRY_MS: '100' },
  });
  url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(line.trim()));
    child.once('exit', (code) => reject(new Error(`strict server exited ${code}`)));
  });
}, 30_000);

afterAll(async () => {
  await Promise.allSettled(sessions.map((s) => s.close()));
  child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

function recorded(): { event: string; tool?: string; status?: number; lastEventId?: string }[] {
  return readFileSync(events, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe('UpstreamSession over Streamable HTTP with a server that polls', () => {
  it('gets the result after several resumptions, each from the last event id; the call runs once', async () => {
    const session = new UpstreamSession({ name: 'strict', transport: { type: 'streamable_http', url } });
    sessions.push(session);
    await session.connect();
    // The result comes on the third resumption: two resumed connections close with no new event.
    const result = await session.callTool(
      'slow_polling',
      { text: 'polled', resumptions: 3 },
      { timeoutMs: 15_000 },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'polled' }]);
    const seen = recorded();
    expect(seen.filter((e) => e.event === 'call')).toHaveLength(1);
    const started = seen.findIndex((e) => e.event === 'call');
    const after = seen.slice(started);
    const resumes = after.filter((e) => e.event === 'resume');
    expect(resumes).toHaveLength(3);
    expect(resumes.every((e) => e.status === 200)).toBe(true);
    // Every GET after the call named an event of the call's stream: no refusal.
    expect(after.filter((e) => e.event === 'refused')).toEqual([]);
  }, 30_000);

  it('answers an ordinary tool as JSON', async () => {
    const session = new UpstreamSession({ name: 'strict', transport: { type: 'streamable_http', url } });
    sessions.push(session);
    const result = await session.callTool('add', { a: 2, b: 3 }, { timeoutMs: 10_000 });
    expect(result.content).toEqual([{ type: 'text', text: '5' }]);
  });
});
