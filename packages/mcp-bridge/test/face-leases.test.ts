import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { _LinkClient } from '../src/gateway/gateway-link.js';
import { type _LeaseStart, _Leases, _leasedRequest } from '../src/gateway/leases.js';
import { _PrincipalCaps } from '../src/gateway/principal-caps.js';
import { silentLogger } from '../src/logger.js';

/** A 2026-07-28 request's handler context: what the leases read of it. */
function ctxOf(retry: { responses?: Record<string, unknown>; state?: string } = {}, principal = 'alice') {
  return {
    mcpReq: {
      id: 1,
      _meta: {},
      signal: new AbortController().signal,
      notify: async () => {},
      envelope: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, sampling: {} } },
      ...(retry.responses && { inputResponses: retry.responses }),
      requestState: () => retry.state,
    },
    http: { authInfo: { clientId: principal, token: '', scopes: [] } },
  } as unknown as ServerContext;
}

/** A server that asks its client `questions` (all at once), then answers with what it was told. */
function serverAsking(questions: string[]): { start: _LeaseStart; closed: () => boolean } {
  let closed = false;
  const start: _LeaseStart = async (client: _LinkClient, request) => {
    const answers = Promise.all(
      questions.map((q) =>
        client.request(
          { method: 'elicitation/create', params: { message: q } },
          { signal: request.signal, timeout: 1000 },
        ),
      ),
    );
    return {
      result: answers.then((a) => ({ content: [{ type: 'text', text: JSON.stringify(a) }] })),
      close: async () => {
        closed = true;
      },
    };
  };
  return { start, closed: () => closed };
}

describe('leases of 2026-07-28 calls', () => {
  it('asks the questions the server sends together in one round, under a signed state, and answers them', async () => {
    const leases = new _Leases({ timeoutMs: 1000, logger: silentLogger });
    const server = serverAsking(['name?', 'colour?']);
    const first = await leases.run(server.start, ctxOf());
    expect(first.resultType).toBe('input_required');
    const requests = first.inputRequests as Record<string, { method: string; params: { message: string } }>;
    expect(Object.values(requests).map((r) => r.params.message)).toEqual(['name?', 'colour?']);
    const state = first.requestState as string;
    expect(state.startsWith('xp-lease.')).toBe(true);
    const [nameKey, colourKey] = Object.keys(requests);
    // Only one answer: the other question is asked again, under the same key.
    const second = await leases.run(server.start, ctxOf({ responses: { [nameKey!]: 'Alice' }, state }));
    expect(Object.keys(second.inputRequests as object)).toEqual([colourKey]);
    const done = await leases.run(
      server.start,
      ctxOf({ responses: { [colourKey!]: 'blue' }, state: second.requestState as string }),
    );
    expect(done).toEqual({ content: [{ type: 'text', text: '["Alice","blue"]' }] });
    expect(server.closed()).toBe(true);
    // The lease ended with the call: its state names nothing any more.
    await expect(leases.run(server.start, ctxOf({ responses: {}, state }))).rejects.toMatchObject({
      code: -32602,
    });
    await leases.close();
  });

  it("refuses a changed state, another principal's, and a foreign one unless told to pass it to the server", async () => {
    const leases = new _Leases({ timeoutMs: 1000, logger: silentLogger });
    const server = serverAsking(['name?']);
    const state = (await leases.run(server.start, ctxOf())).requestState as string;
    for (const bad of [`${state}x`, `xp-lease.${state.slice(-20)}`, 'v1.someone-else'])
      await expect(leases.run(server.start, ctxOf({ responses: {}, state: bad }))).rejects.toMatchObject({
        code: -32602,
      });
    await expect(leases.run(server.start, ctxOf({ responses: {}, state }, 'mallory'))).rejects.toMatchObject({
      code: -32602,
    });
    // Passed on: a new lease starts (the server behind it checks its own state).
    let started = 0;
    const passing: _LeaseStart = async () => {
      started++;
      return { result: Promise.resolve({ content: [] }), close: async () => {} };
    };
    expect(await leases.run(passing, ctxOf({ state: 'v1.server-own' }), { foreignState: 'pass' })).toEqual({
      content: [],
    });
    expect(started).toBe(1);
    await leases.close();
  });

  it('resumes a lease only through the request it runs (the one whose scopes the face checked)', async () => {
    const leases = new _Leases({ timeoutMs: 20_000, logger: silentLogger });
    const server = serverAsking(['name?']);
    const runs = { request: _leasedRequest('tools/call', 'fs', { name: 'ask_name' }) };
    const first = await leases.run(server.start, ctxOf(), runs);
    const key = Object.keys(first.inputRequests as object)[0]!;
    const retry = ctxOf({ responses: { [key]: 'Alice' }, state: first.requestState as string });
    await expect(
      leases.run(server.start, retry, { request: _leasedRequest('tools/call', 'fs', { name: 'other' }) }),
    ).rejects.toMatchObject({ code: -32602, data: { reason: 'request_state_mismatch' } });
    expect(await leases.run(server.start, retry, runs)).toEqual({
      content: [{ type: 'text', text: '["Alice"]' }],
    });
    await leases.close();
  });

  it('refuses a second call with the same state while one is answering', async () => {
    // Generous timeouts: none of them is what this test checks, and a loaded machine must not hit one.
    const leases = new _Leases({ timeoutMs: 20_000, logger: silentLogger });
    let release: (() => void) | undefined;
    const slow: _LeaseStart = async (client, request) => ({
      result: client
        .request({ method: 'roots/list' }, { signal: request.signal, timeout: 20_000 })
        .then(() => new Promise<void>((resolve) => (release = resolve)))
        .then(() => ({ content: [] })),
      close: async () => {},
    });
    const first = await leases.run(slow, ctxOf());
    const key = Object.keys(first.inputRequests as object)[0]!;
    const retry = { responses: { [key]: { roots: [] } }, state: first.requestState as string };
    const running = leases.run(slow, ctxOf(retry));
    await expect(leases.run(slow, ctxOf(retry))).rejects.toMatchObject({ code: -32602 });
    // The retry's answer reaches the server's request after some turns of the event loop (more of
    // them on a loaded machine): wait for it rather than for a fixed number of turns.
    while (release === undefined) await new Promise((resolve) => setImmediate(resolve));
    release();
    expect(await running).toEqual({ content: [] });
    await leases.close();
  });

  it("holds each principal to its share of the leases and all to the ceiling; a lease's end, or its failed start, gives its share back", async () => {
    const caps = new _PrincipalCaps({ perPrincipal: 2, total: 3 });
    const leases = new _Leases({ timeoutMs: 20_000, logger: silentLogger, caps });
    const server = serverAsking(['name?']);
    const as = (principal: string) => ({ principal });
    const alices = [
      await leases.run(server.start, ctxOf(), as('alice')),
      await leases.run(server.start, ctxOf(), as('alice')),
    ];
    await expect(leases.run(server.start, ctxOf(), as('alice'))).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining(
        'for this principal: it holds 2, at most 2 (mcp_server.max_leases_per_principal)',
      ),
      data: { xp_code: 'RATE_LIMITED', retry_after: 5 },
    });
    // Another principal is not refused by alice's leases, up to the ceiling.
    expect((await leases.run(server.start, ctxOf({}, 'bob'), as('bob'))).resultType).toBe('input_required');
    await expect(leases.run(server.start, ctxOf({}, 'carol'), as('carol'))).rejects.toMatchObject({
      message: expect.stringContaining('all principals together hold 3, at most 3 (mcp_server.max_leases)'),
    });
    // Alice answers one: her lease ends with the call, and its share is hers again.
    const first = alices[0]!;
    const key = Object.keys(first.inputRequests as object)[0]!;
    const retry = ctxOf({ responses: { [key]: 'Alice' }, state: first.requestState as string });
    expect(await leases.run(server.start, retry, as('alice'))).toEqual({
      content: [{ type: 'text', text: '["Alice"]' }],
    });
    expect(caps.held('alice')).toBe(1);
    // A lease whose session cannot open holds nothing after.
    const failing: _LeaseStart = async () => {
      throw new Error('the upstream cannot be reached');
    };
    await expect(leases.run(failing, ctxOf({}, 'carol'), as('carol'))).rejects.toThrow('cannot be reached');
    expect(caps.held('carol')).toBe(0);
    expect(caps.total).toBe(2);
    await leases.close();
    expect(caps.total).toBe(0);
  });
});
