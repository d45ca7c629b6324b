/** parseJsonText: I-JSON's duplicate names and the depth bound, which JSON.parse lets through. */
import { describe, expect, it } from 'vitest';
import { MAX_JSON_TEXT_DEPTH, parseClientMessage, parseJsonText, parseRelayMessage } from '../src/index.js';

describe('parseJsonText', () => {
  it('refuses a member name twice in one object, compared after unescaping', () => {
    expect(parseJsonText('{"a":1,"a":2}')).toEqual({
      ok: false,
      reason: 'duplicate member name "a" (I-JSON: each name at most once per object)',
    });
    expect(parseJsonText('{"a":1,"\\u0061":2}').ok).toBe(false);
    expect(parseJsonText('[{"a":1},{"a":2}]')).toEqual({ ok: true, value: [{ a: 1 }, { a: 2 }] });
    expect(parseJsonText('{"a":{"a":1},"b":"a"}').ok).toBe(true);
    expect(parseJsonText('{"a":"x\\"","b":["a","a"],"c":{"\\\\":1,"\\"":2}}').ok).toBe(true);
  });

  it('counts the outermost array or object as level 1 and accepts 512 levels, not 513', () => {
    const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(parseJsonText(nest(MAX_JSON_TEXT_DEPTH)).ok).toBe(true);
    expect(parseJsonText(nest(MAX_JSON_TEXT_DEPTH + 1))).toEqual({
      ok: false,
      reason: 'more than 512 levels of nesting',
    });
    expect(parseJsonText('"[[[["').ok).toBe(true);
  });

  it('leaves what is not JSON to JSON.parse', () => {
    expect(parseJsonText('{"a":1')).toEqual({ ok: false, reason: 'not valid JSON' });
    expect(parseJsonText('"open')).toEqual({ ok: false, reason: 'not valid JSON' });
  });

  it('is the first step of both frame parsers', () => {
    const event = '{"id":"x","id":"y"}';
    expect(parseRelayMessage(`["EVENT","s",${event}]`)).toEqual({
      ok: false,
      reason:
        'invalid: message is not I-JSON: duplicate member name "id" (I-JSON: each name at most once per object)',
    });
    expect(parseClientMessage(`["EVENT",${event}]`).ok).toBe(false);
  });
});
