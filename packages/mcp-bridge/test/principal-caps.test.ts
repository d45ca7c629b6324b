// The caps per principal under a ceiling for all (gateway/principal-caps.ts): what is taken and
// given back, which cap refuses and with what, and the face's one principal held to the ceiling only.
import { describe, expect, it } from 'vitest';
import { _capMessage, _fairShare, _PrincipalCaps } from '../src/gateway/principal-caps.js';

describe('_PrincipalCaps', () => {
  it('refuses a principal over its own cap, naming it, and takes nothing then', () => {
    const caps = new _PrincipalCaps({ perPrincipal: 2, total: 5 });
    expect(caps.take('alice', 2)).toBeUndefined();
    expect(caps.take('alice')).toEqual({ scope: 'principal', held: 2, limit: 2 });
    expect(caps.held('alice')).toBe(2);
    expect(caps.total).toBe(2);
    // Another principal is not held back by alice.
    expect(caps.take('bob', 2)).toBeUndefined();
  });

  it('refuses anyone once every principal together holds the ceiling', () => {
    const caps = new _PrincipalCaps({ perPrincipal: 2, total: 3 });
    expect(caps.take('alice', 2)).toBeUndefined();
    expect(caps.take('bob')).toBeUndefined();
    expect(caps.take('carol')).toEqual({ scope: 'total', held: 3, limit: 3 });
    expect(caps.take('bob', 2)).toEqual({ scope: 'principal', held: 1, limit: 2 });
    caps.give('alice');
    expect(caps.take('carol')).toBeUndefined();
    expect(caps.held('carol')).toBe(1);
  });

  it('gives back what was taken, forgetting a principal that holds nothing', () => {
    const caps = new _PrincipalCaps({ perPrincipal: 3, total: 3 });
    caps.take('alice', 3);
    caps.give('alice', 2);
    expect(caps.held('alice')).toBe(1);
    caps.give('alice');
    expect(caps.held('alice')).toBe(0);
    expect(caps.total).toBe(0);
    expect(caps.take('alice', 3)).toBeUndefined();
  });

  it('holds the face’s one principal (undefined) to the ceiling only', () => {
    const caps = new _PrincipalCaps({ perPrincipal: 1, total: 3 });
    expect(caps.take(undefined, 3)).toBeUndefined();
    expect(caps.held(undefined)).toBe(3);
    expect(caps.take(undefined)).toEqual({ scope: 'total', held: 3, limit: 3 });
    caps.give(undefined, 3);
    expect(caps.total).toBe(0);
  });

  it('gives a principal a quarter of the ceiling by default, at least one', () => {
    expect([_fairShare(64), _fairShare(256), _fairShare(5), _fairShare(1)]).toEqual([16, 64, 2, 1]);
  });

  it('says which cap refused, what is held, the setting, and what to do', () => {
    const knobs = { perPrincipal: 'x.per_principal', total: 'x.total' };
    expect(_capMessage({ scope: 'principal', held: 2, limit: 2 }, 'widgets', knobs, 'retry later')).toBe(
      'too many widgets for this principal: it holds 2, at most 2 (x.per_principal); retry later',
    );
    expect(_capMessage({ scope: 'total', held: 9, limit: 9 }, 'widgets', knobs, 'retry later')).toBe(
      'too many widgets on this MCP face: all principals together hold 9, at most 9 (x.total); retry later',
    );
  });
});
