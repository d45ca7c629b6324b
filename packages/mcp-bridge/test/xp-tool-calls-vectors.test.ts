// testdata/vectors/xp-tool-calls.json (docs/protocol.md §10.9): each request payload, sealed to a
// real endpoint on a real relay on loopback (a real stdio MCP server behind it), is answered with
// exactly the file's result payload (`{kind}.result`), or refused with the file's `xp.error` code;
// and the MCP face gives its client that result unchanged.
import { join } from 'node:path';
import { openEvent, sealEvent, type XpEvent } from '@xprotocol/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOnRelay, backends, type Stack, startStack } from './support/stack.js';
import { loadVectorFile } from './support/vectors.js';

interface ToolCallVectors {
  description: string;
  cases: { id: string; kind: string; request: unknown; result: unknown }[];
  refused: { id: string; kind: string; request?: unknown; request_plaintext?: string; code: string }[];
}

const vectors = loadVectorFile<ToolCallVectors>('testdata/vectors/xp-tool-calls.json');
const FIXTURE = join(import.meta.dirname, 'fixtures', 'tool-results-server.mjs');

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ command: [process.execPath, FIXTURE], grants: ['com.test.fs.*'] });
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

function _sealed(kind: string, body: { payload: unknown } | { plaintext: string }): XpEvent {
  const now = Math.floor(Date.now() / 1000);
  return sealEvent(
    { kind, ...body, created_at: now, expiration: now + 30 },
    stack.client,
    stack.adapter.keys,
    backends,
  );
}

/** Publishes `request` and resolves with the endpoint's answer as the relay delivers it. */
function _answerTo(request: XpEvent): Promise<XpEvent> {
  return answerOnRelay(stack, request);
}

describe('testdata/vectors/xp-tool-calls.json', () => {
  it('names its section', () => {
    expect(vectors.description).toContain('docs/protocol.md §10.9');
  });

  it.each(vectors.cases.map((v) => [v.id, v] as const))(
    '%s: the result payload, exactly',
    async (_id, v) => {
      const answer = await _answerTo(_sealed(v.kind, { payload: v.request }));
      expect(answer.kind).toBe(`${v.kind}.result`);
      expect(JSON.parse(openEvent(answer, stack.client, backends).plaintext)).toEqual(v.result);
      // The caller's side (what an MCP face hands its client) reads the same payload.
      const outcome = await stack.caller.call({
        to: stack.adapter.keys,
        kind: v.kind,
        payload: v.request,
        timeoutMs: 15_000,
      });
      expect(outcome.ok && outcome.payload).toEqual(v.result);
    },
    30_000,
  );

  it.each(vectors.refused.map((v) => [v.id, v] as const))(
    'refused %s',
    async (_id, v) => {
      const body =
        v.request_plaintext === undefined ? { payload: v.request } : { plaintext: v.request_plaintext };
      const answer = await _answerTo(_sealed(v.kind, body));
      expect(answer.kind).toBe('xp.error');
      expect((JSON.parse(openEvent(answer, stack.client, backends).plaintext) as { code: string }).code).toBe(
        v.code,
      );
    },
    30_000,
  );
});
