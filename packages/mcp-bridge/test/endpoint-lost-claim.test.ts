// Replicas (docs/deploy.md): a replica that loses a call to another before the call starts (its
// lease lapsed under load and a survivor took the call over) must leave the call to that one:
// no upstream call, no answer at all — not even an error — and the claim is not settled, so the
// owner still runs it. The loss is injected at the journal's `started` step, on a real endpoint
// with a real MCP server and relay.
import { sealEvent, type XpEvent } from '@xprotocol/crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { _LostClaim } from '../src/state/shared-journal.js';
import { backends, type Stack, startStack } from './support/stack.js';

const READ = 'com.test.fs.read_text_file';
let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

describe('a call another replica took over before it started', () => {
  it('is dropped here without an answer, an upstream call or a settled claim', async () => {
    stack = await startStack();
    const s = stack;
    const lost = new _LostClaim(
      'STATE_DATABASE',
      'inbound call x: cannot start it, this replica no longer owns it',
    );
    s.state.recordStarted = async () => {
      throw lost;
    };
    const settled: string[] = [];
    s.state.settle = async (id: string) => {
      settled.push(id);
    };
    const now = Math.floor(Date.now() / 1000);
    const request: XpEvent = sealEvent(
      { kind: READ, payload: { path: `${s.dir}/hello.txt` }, created_at: now, expiration: now + 30 },
      s.client,
      s.adapter.keys,
      backends,
    );
    expect(await s.endpoint.handleEvent(request)).toEqual({ action: 'dropped', reason: lost.message });
    expect(s.upstreamCalls()).toBe(0);
    expect(s.state.status(request.id)).toBeUndefined();
    expect(settled).toEqual([]);
    expect(await s.adapterPool.outboxSize()).toBe(0);
  });
});
