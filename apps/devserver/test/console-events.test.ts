// ConsoleEvents: answers joined to their requests (latency, the adapter's refusal reason), the
// relay's refusal count without double-counting what the console's client already explained,
// and a bounded history replayed to a new subscriber.
import { describe, expect, it } from 'vitest';
import { ConsoleEvents } from '../src/console-events.js';
import type { EventLogEntry } from '../src/event-log.js';

const REQUEST = 'a'.repeat(64);
const ANSWER = 'b'.repeat(64);
const entry = (over: Partial<EventLogEntry>): EventLogEntry => ({
  at: 1000,
  kind: 'com.x.read',
  from: 'ed25519:11',
  to: 'ed25519:22',
  bytes: 600,
  outcome: 'stored',
  id: REQUEST,
  ...over,
});

describe('ConsoleEvents', () => {
  it("joins an answer to its request: latency, and an xp.error's logged reason", () => {
    const events = new ConsoleEvents();
    const seen: unknown[] = [];
    events.subscribe((e) => seen.push(e));
    events.relayed(entry({}));
    events.refusedByAdapter(REQUEST, 'AUTHORIZATION_INSUFFICIENT', 'com.x.read is required');
    events.relayed(entry({ at: 1042, kind: 'xp.error', id: ANSWER, replyTo: REQUEST }));
    expect(seen).toEqual([
      expect.objectContaining({ seq: 1, id: REQUEST, verdict: 'stored' }),
      expect.objectContaining({
        seq: 2,
        id: ANSWER,
        replyTo: REQUEST,
        latencyMs: 42,
        refusal: { code: 'AUTHORIZATION_INSUFFICIENT', message: 'com.x.read is required' },
      }),
    ]);
    expect(seen[0]).not.toHaveProperty('latencyMs');
  });

  it('shows each event the relay refused with its reason, sender and kind', () => {
    const events = new ConsoleEvents();
    events.refusedByRelay('invalid: event.sig does not verify', 'com.x.read', 'ed25519:11');
    events.refusedByRelay('rate-limited: slow down: retry after 3 s', undefined, undefined);
    expect(events.history()).toEqual([
      expect.objectContaining({
        type: 'refused',
        count: 1,
        reason: 'invalid: event.sig does not verify',
        kind: 'com.x.read',
        from: 'ed25519:11',
      }),
      expect.objectContaining({
        type: 'refused',
        count: 1,
        reason: 'rate-limited: slow down: retry after 3 s',
      }),
    ]);
    expect(events.history()[1]).not.toHaveProperty('kind');
  });

  it('keeps at most `limit` records, oldest dropped', () => {
    const events = new ConsoleEvents(3);
    for (let i = 0; i < 5; i++) events.relayed(entry({ id: String(i).repeat(64) }));
    expect(events.history().map((e) => e.seq)).toEqual([3, 4, 5]);
  });
});
