import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { _decodeCursor, _encodeCursor, _nextPosition } from '../src/gateway/gateway-cursor.js';
import { _GatewayNames } from '../src/gateway/gateway-names.js';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const KEY = `ed25519:${'ab'.repeat(32)}`;
const hex8 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);

describe('names of aggregated prompts and resources (the tool rule)', () => {
  it('keeps a short name seen first, hashes a taken one, and always gives an origin the same name', () => {
    const names = new _GatewayNames(KEY, sha256);
    expect(names.assign('one', 'summarize')).toBe('summarize');
    expect(names.assign('two', 'summarize')).toBe(`summarize_${hex8(`${KEY}two\u0000summarize`)}`);
    expect(names.assign('one', 'summarize')).toBe('summarize');
    expect(names.resolve(`summarize_${hex8(`${KEY}two\u0000summarize`)}`)).toEqual({
      source: 'two',
      name: 'summarize',
    });
    expect(names.resolve('unknown')).toBeUndefined();
  });

  it('shortens a name over 64 characters to its first 55 + _ + 8 hex (64 in all)', () => {
    const names = new _GatewayNames(KEY, sha256);
    const long = 'p'.repeat(70);
    const short = names.assign('one', long);
    expect(short).toBe(`${'p'.repeat(55)}_${hex8(`${KEY}one\u0000${long}`)}`);
    expect(short).toHaveLength(64);
    expect(names.assign('one', 'q'.repeat(64))).toBe('q'.repeat(64));
  });
});

describe('cursors of aggregated lists', () => {
  it('round-trips an upstream position and moves to the next upstream when a page has no cursor', () => {
    expect(_decodeCursor(undefined, 2)).toEqual({ index: 0 });
    expect(_decodeCursor(_encodeCursor({ index: 1, cursor: 'abc' }), 2)).toEqual({ index: 1, cursor: 'abc' });
    expect(_nextPosition(0, 'next', 2)).toEqual({ index: 0, cursor: 'next' });
    expect(_nextPosition(0, undefined, 2)).toEqual({ index: 1 });
    expect(_nextPosition(1, '', 2)).toBeUndefined();
  });

  it('refuses a cursor it did not issue, or one past the upstreams, with -32602', () => {
    expect(() => _decodeCursor('not-a-cursor', 2)).toThrow(expect.objectContaining({ code: -32602 }));
    expect(() => _decodeCursor(_encodeCursor({ index: 2 }), 2)).toThrow(
      expect.objectContaining({ code: -32602 }),
    );
  });
});
