// Relay frames: every builder's output parses back to the same message; malformed frames are
// refused with a reason; any JSON input parses or is refused, never throws.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRelayMessage, reason, relayMessage } from '../src/index.js';

describe('relay frames', () => {
  it('round-trips every builder through the parser', () => {
    const event = { id: 'b'.repeat(64) };
    expect(parseRelayMessage(relayMessage.event('s', event))).toEqual({
      ok: true,
      message: { type: 'EVENT', subscriptionId: 's', event },
    });
    const why = reason('duplicate', 'already have this event');
    expect(parseRelayMessage(relayMessage.ok('id1', true, why))).toEqual({
      ok: true,
      message: { type: 'OK', eventId: 'id1', accepted: true, reason: why },
    });
    expect(parseRelayMessage(relayMessage.eose('s'))).toEqual({
      ok: true,
      message: { type: 'EOSE', subscriptionId: 's' },
    });
    expect(parseRelayMessage(relayMessage.closed('s', 'restricted: no'))).toEqual({
      ok: true,
      message: { type: 'CLOSED', subscriptionId: 's', reason: 'restricted: no' },
    });
    expect(parseRelayMessage(relayMessage.notice('invalid: x'))).toEqual({
      ok: true,
      message: { type: 'NOTICE', reason: 'invalid: x' },
    });
    expect(parseRelayMessage(relayMessage.auth('challenge-1'))).toEqual({
      ok: true,
      message: { type: 'AUTH', challenge: 'challenge-1' },
    });
  });

  it('frames an event from its JSON text exactly as from the event', () => {
    const event = { id: 'b'.repeat(64), content: 'quote " and \u2028 and é', tags: [['e', 'x']] };
    for (const subscriptionId of ['s', 'sub "1"', 'ü\\']) {
      expect(relayMessage.eventJson(subscriptionId, JSON.stringify(event))).toBe(
        relayMessage.event(subscriptionId, event),
      );
    }
  });

  it.each([
    ['["OK","id",true]', 'invalid: OK takes 3 arguments, got 2'],
    ['["OK","id","yes",""]', 'invalid: OK: accepted must be a boolean, got string'],
    ['["OK",1,true,""]', 'invalid: OK: the event id must be a string, got number'],
    ['["EVENT","s"]', 'invalid: EVENT takes 2 arguments, got 1'],
    ['["EOSE",""]', 'invalid: a subscription id must be a string of 1 to 64 characters, got 0 characters'],
    ['["CLOSED","s",null]', 'invalid: CLOSED: the reason must be a string, got null'],
    ['["NOTICE"]', 'invalid: NOTICE takes 1 argument, got 0'],
    ['["AUTH",{}]', 'invalid: AUTH takes a string, got object'],
    [
      '["REQ","s",{}]',
      'invalid: unknown message type "REQ"; expected "EVENT", "OK", "EOSE", "CLOSED", "NOTICE" or "AUTH"',
    ],
  ])('refuses %s', (text, why) => {
    expect(parseRelayMessage(text)).toEqual({ ok: false, reason: why });
  });

  it('parses any JSON into a typed message or refuses it with an invalid: reason (never throws)', () => {
    const frames = fc.oneof(
      fc.jsonValue(),
      fc
        .tuple(
          fc.constantFrom('EVENT', 'OK', 'EOSE', 'CLOSED', 'NOTICE', 'AUTH', 'REQ'),
          fc.array(fc.oneof(fc.string(), fc.boolean(), fc.jsonValue()), { maxLength: 4 }),
        )
        .map(([type, rest]) => [type, ...rest]),
    );
    fc.assert(
      fc.property(frames, (value) => {
        const parsed = parseRelayMessage(JSON.stringify(value));
        if (!parsed.ok) {
          expect(parsed.reason).toMatch(/^invalid: /);
          return;
        }
        const { message } = parsed;
        expect((value as unknown[])[0]).toBe(message.type);
        if (message.type === 'OK') {
          expect(typeof message.eventId).toBe('string');
          expect(typeof message.accepted).toBe('boolean');
          expect(typeof message.reason).toBe('string');
        }
      }),
      { numRuns: 2000 },
    );
  });
});
