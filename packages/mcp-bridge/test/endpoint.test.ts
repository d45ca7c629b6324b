import { createEventTemplate, sealEvent, signEvent, type XpEvent } from '@xprotocol/crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type InboundOutcome, XpCaller } from '../src/index.js';
import { backends, type Stack, startStack } from './support/stack.js';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const READ = 'com.test.fs.read_text_file';

/** A sealed request from the test client to the adapter, as the caller would build it. */
function request(
  s: Stack,
  kind: string,
  payload: unknown,
  extra: { created_at?: number; expiration?: number } = {},
): XpEvent {
  const now = Math.floor(Date.now() / 1000);
  return sealEvent(
    { kind, payload, created_at: extra.created_at ?? now, expiration: extra.expiration ?? now + 30 },
    s.client,
    s.adapter.keys,
    backends,
  );
}

describe('Direction 1 through the real relay', () => {
  it('calls the wrapped MCP server and returns its result, signed and encrypted', async () => {
    stack = await startStack();
    const outcome = await stack.caller.call({
      to: stack.adapter.keys,
      kind: READ,
      payload: { path: `${stack.dir}/hello.txt` },
      timeoutMs: 10_000,
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const result = outcome.payload as { content: { type: string; text: string }[] };
    expect(result.content[0]!.text).toBe('hello from the filesystem\n');
    expect(outcome.answer.kind).toBe(`${READ}.result`);
    expect(outcome.answer.pubkey).toBe(stack.adapter.keys.ed25519);
    expect(outcome.answer.content).not.toContain('hello'); // encrypted on the wire
    expect(stack.upstreamCalls()).toBe(1);
  });

  it.each([
    [
      'a key without the capability',
      'com.test.fs.write_file',
      { path: 'x', content: 'y' },
      'AUTHORIZATION_INSUFFICIENT',
      /com\.test\.fs\.write is required/,
    ],
    ['a payload not matching the schema', READ, { path: 42 }, 'SCHEMA_VIOLATION', /\/path: must be string/],
    [
      'a payload nested past the depth limit (before the validator walks it)',
      READ,
      { path: JSON.parse(`${'['.repeat(64)}${']'.repeat(64)}`) },
      'SCHEMA_VIOLATION',
      /^the payload: 65 levels of nesting; the limit is 64$/,
    ],
    [
      'an unknown kind',
      'com.test.fs.no_such_tool',
      {},
      'NOT_FOUND',
      /no schema com\.test\.fs\.no_such_tool here/,
    ],
  ])('refuses %s (%s) with its error and no upstream call', async (_what, kind, payload, code, message) => {
    stack = await startStack();
    const outcome = await stack.caller.call({ to: stack.adapter.keys, kind, payload, timeoutMs: 10_000 });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe(code);
    expect(outcome.error.message).toMatch(message);
    expect(outcome.answer?.kind).toBe('xp.error');
    expect(stack.upstreamCalls()).toBe(0);
  });

  it('rate-limits per key and source with RATE_LIMITED and retry_after', async () => {
    stack = await startStack({ requestsPerMinute: 2 });
    const call = () =>
      stack!.caller.call({
        to: stack!.adapter.keys,
        kind: READ,
        payload: { path: `${stack!.dir}/hello.txt` },
        timeoutMs: 10_000,
      });
    expect((await call()).ok).toBe(true);
    expect((await call()).ok).toBe(true);
    const third = await call();
    expect(third.ok).toBe(false);
    if (third.ok) return;
    expect(third.error.code).toBe('RATE_LIMITED');
    expect(third.error.retry_after).toBeGreaterThanOrEqual(1);
    expect(stack.upstreamCalls()).toBe(2);
  });

  it('answers the catalog request with every contract, public and signed', async () => {
    stack = await startStack();
    const contracts = await stack.caller.catalog(stack.adapter.keys.ed25519, 10_000);
    expect(contracts.map((c) => c.kind)).toContain(READ);
    expect(contracts).toHaveLength(14);
  });

  it('answers two catalog requests made in the same second: each request is its own event', async () => {
    stack = await startStack();
    // A frozen clock: two requests with the same content, kind and second would otherwise share
    // one event id, and the endpoint would drop the second as a replay.
    const frozen = Date.now();
    const caller = new XpCaller({
      identity: stack.client,
      pool: stack.clientPool,
      now: () => frozen,
      ...backends,
    });
    const first = await caller.catalog(stack.adapter.keys.ed25519, 10_000);
    const second = await caller.catalog(stack.adapter.keys.ed25519, 10_000);
    expect(second).toEqual(first);
  });
});

describe('xp.schema.describe through the real relay', () => {
  it('ranks the schemas for an intent, sealed both ways, with no capability needed', async () => {
    stack = await startStack({ grants: [] });
    const outcome = await stack.caller.call({
      to: stack.adapter.keys,
      kind: 'xp.schema.describe',
      payload: { intent: 'read the text contents of a file', limit: 3 },
      timeoutMs: 10_000,
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const { matches } = outcome.payload as {
      matches: { kind: string; relevance: number; use_when: string }[];
    };
    expect(matches).toHaveLength(3);
    expect(matches.map((m) => m.kind)).toContain(READ);
    expect(matches[0]!.relevance).toBe(1);
    expect(outcome.answer.kind).toBe('xp.schema.describe.result');
    expect(stack.upstreamCalls()).toBe(0);
  });

  it('answers a malformed query with SCHEMA_VIOLATION', async () => {
    stack = await startStack();
    const outcome = await stack.caller.call({
      to: stack.adapter.keys,
      kind: 'xp.schema.describe',
      payload: { intent_verbs: 'read' },
      timeoutMs: 10_000,
    });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok)
      expect(outcome.error).toMatchObject({
        code: 'SCHEMA_VIOLATION',
        message: expect.stringMatching(/intent_verbs: expected an array of strings/),
      });
  });
});

describe('Direction 1: events injected below the relay', () => {
  it('drops a tampered signature, a stale event and a bad shape without answering', async () => {
    stack = await startStack();
    const good = request(stack, READ, { path: `${stack.dir}/hello.txt` });
    const flipped = { ...good, sig: (good.sig[0] === 'a' ? 'b' : 'a') + good.sig.slice(1) };
    expect(await stack.endpoint.handleEvent(flipped)).toMatchObject({
      action: 'dropped',
      reason: expect.stringMatching(/^signature: /),
    });
    const stale = request(
      stack,
      READ,
      { path: 'x' },
      { created_at: Math.floor(Date.now() / 1000) - 7200, expiration: Math.floor(Date.now() / 1000) + 60 },
    );
    expect(await stack.endpoint.handleEvent(stale)).toMatchObject({
      action: 'dropped',
      reason: expect.stringMatching(/^stale: /),
    });
    expect(await stack.endpoint.handleEvent({ ...good, kind: 'bad kind' })).toMatchObject({
      action: 'dropped',
      reason: expect.stringMatching(/^shape: /),
    });
    expect(stack.upstreamCalls()).toBe(0);
  });

  it('answers an expired request with EXPIRED, without calling upstream', async () => {
    stack = await startStack();
    const now = Math.floor(Date.now() / 1000);
    const expired = request(stack, READ, { path: 'x' }, { created_at: now - 20, expiration: now - 10 });
    const outcome = await stack.endpoint.handleEvent(expired);
    expect(outcome).toMatchObject({ action: 'answered', kind: 'xp.error', code: 'EXPIRED' });
    expect(stack.upstreamCalls()).toBe(0);
  });

  it('runs a replayed event once, also after the adapter restarts', async () => {
    stack = await startStack();
    const event = request(stack, READ, { path: `${stack.dir}/hello.txt` });
    expect(await stack.endpoint.handleEvent(event)).toMatchObject({
      action: 'answered',
      kind: `${READ}.result`,
    });
    expect(await stack.endpoint.handleEvent(event)).toMatchObject({
      action: 'dropped',
      reason: expect.stringMatching(/^duplicate/),
    });
    const restarted = await stack.restart();
    expect(await restarted.handleEvent(event)).toMatchObject({
      action: 'dropped',
      reason: expect.stringMatching(/^duplicate/),
    });
    expect(stack.upstreamCalls()).toBe(1);
  });

  it('answers a call interrupted by a crash with UPSTREAM_ERROR and never re-runs it', async () => {
    stack = await startStack();
    const event = request(stack, READ, { path: `${stack.dir}/hello.txt` });
    // The state a crash leaves when it strikes after "started", before the answer was stored.
    await stack.state.recordStarted(event, Math.floor(Date.now() / 1000));
    const answers: XpEvent[] = [];
    stack.clientPool.subscribe([{ '#e': [event.id] }], { onEvent: (e) => answers.push(e) });
    const restarted = await stack.restart();
    await restarted.start();
    for (let i = 0; i < 200 && answers.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(answers.map((a) => a.kind)).toEqual(['xp.error']);
    expect(stack.state.status(event.id)).toBe('done');
    expect(stack.upstreamCalls()).toBe(0);
  });

  it('ignores answers addressed to the adapter (they belong to its own calls)', async () => {
    stack = await startStack();
    const now = Math.floor(Date.now() / 1000);
    const result = signEvent(
      createEventTemplate({
        kind: `${READ}.result`,
        content: '{}',
        tags: [['p', stack.adapter.keys.ed25519]],
        created_at: now,
      }),
      stack.client.ed25519.secretKey,
    );
    expect(await stack.endpoint.handleEvent(result)).toMatchObject({ action: 'ignored' });
  });
});

describe('what the endpoint reports of each event', () => {
  it('hands every outcome to onOutcome with its request, and a refusal with its code and message', async () => {
    const seen: { outcome: InboundOutcome; kind: string | undefined }[] = [];
    stack = await startStack({
      onOutcome: (outcome, request) => seen.push({ outcome, kind: request?.kind }),
    });
    const served = request(stack, READ, { path: `${stack.dir}/hello.txt` });
    const refused = request(stack, 'com.test.fs.write_file', { path: 'x', content: 'y' });
    const tampered = { ...served, id: served.id.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) };
    await stack.endpoint.handleEvent(served);
    await stack.endpoint.handleEvent(refused);
    await stack.endpoint.handleEvent(tampered);
    expect(seen).toEqual([
      {
        outcome: expect.objectContaining({ action: 'answered', kind: `${READ}.result`, code: undefined }),
        kind: READ,
      },
      {
        outcome: expect.objectContaining({
          action: 'answered',
          kind: 'xp.error',
          code: 'AUTHORIZATION_INSUFFICIENT',
          message: expect.stringMatching(/com\.test\.fs\.write is required/),
        }),
        kind: 'com.test.fs.write_file',
      },
      { outcome: expect.objectContaining({ action: 'dropped' }), kind: undefined },
    ]);
  });
});
