// Client frames: every builder's output parses back to the same message; malformed frames are
// refused with an `invalid:` reason; any JSON input parses or is refused, never throws.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientMessage, parseClientMessage } from '../src/index.js';

describe('client frames', () => {
  it('round-trips every builder through the parser', () => {
    const event = { id: 'a'.repeat(64), kind: 'com.test.echo' };
    expect(parseClientMessage(clientMessage.event(event))).toEqual({
      ok: true,
      message: { type: 'EVENT', event },
    });
    expect(parseClientMessage(clientMessage.auth(event))).toEqual({
      ok: true,
      message: { type: 'AUTH', event },
    });
    expect(parseClientMessage(clientMessage.req('s1', [{ kinds: ['a'] }, { since: 1 }]))).toEqual({
      ok: true,
      message: { type: 'REQ', subscriptionId: 's1', filters: [{ kinds: ['a'] }, { since: 1 }] },
    });
    expect(parseClientMessage(clientMessage.close('s1'))).toEqual({
      ok: true,
      message: { type: 'CLOSE', subscriptionId: 's1' },
    });
  });

  it('builders refuse what the parser would refuse', () => {
    expect(() => clientMessage.req('', [{}])).toThrow(/subscription id must be a string of 1 to 64/);
    expect(() => clientMessage.req('s', [])).toThrow(/at least one filter/);
    expect(() => clientMessage.close('x'.repeat(65))).toThrow(/got 65 characters/);
  });

  it.each([
    ['not json', 'invalid: message is not valid JSON'],
    ['{}', 'invalid: expected a JSON array whose first element is "EVENT", "REQ", "CLOSE" or "AUTH"'],
    ['[1]', 'invalid: expected a JSON array whose first element is "EVENT", "REQ", "CLOSE" or "AUTH"'],
    ['["PUBLISH",{}]', 'invalid: unknown message type "PUBLISH"; expected "EVENT", "REQ", "CLOSE" or "AUTH"'],
    ['["EVENT"]', 'invalid: EVENT takes 1 argument, got 0'],
    ['["AUTH",{},{}]', 'invalid: AUTH takes 1 argument, got 2'],
    ['["REQ","s"]', 'invalid: REQ needs at least one filter'],
    ['["REQ",7,{}]', 'invalid: a subscription id must be a string of 1 to 64 characters, got number'],
    ['["CLOSE","s",1]', 'invalid: CLOSE takes 1 argument, got 2'],
  ])('refuses %s', (text, reason) => {
    expect(parseClientMessage(text)).toEqual({ ok: false, reason });
  });

  it('parses any JSON into a typed message or refuses it with an invalid: reason (never throws)', () => {
    const frames = fc.oneof(
      fc.jsonValue(),
      fc
        .tuple(
          fc.constantFrom('EVENT', 'REQ', 'CLOSE', 'AUTH', 'OK', ''),
          fc.array(fc.jsonValue(), { maxLength: 4 }),
        )
        .map(([type, rest]) => [type, ...rest]),
    );
    fc.assert(
      fc.property(frames, (value) => {
        const parsed = parseClientMessage(JSON.stringify(value));
        if (!parsed.ok) {
          expect(parsed.reason).toMatch(/^invalid: /);
          return;
        }
        const { message } = parsed;
        const frame = value as unknown[];
        expect(frame[0]).toBe(message.type);
        if (message.type === 'REQ' || message.type === 'CLOSE') {
          expect(message.subscriptionId.length).toBeGreaterThan(0);
          expect(message.subscriptionId.length).toBeLessThanOrEqual(64);
        }
        if (message.type === 'REQ') expect(message.filters.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses any text that is not JSON, never throws', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseClientMessage(text);
        expect(typeof parsed.ok).toBe('boolean');
        if (!parsed.ok) expect(parsed.reason).toMatch(/^invalid: /);
      }),
      { numRuns: 2000 },
    );
  });
});
