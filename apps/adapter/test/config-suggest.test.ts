import { describe, expect, it } from 'vitest';
import { _editDistance, _nearestKey } from '../src/config/_suggest.js';

describe('edit distance (optimal string alignment)', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
    ['trasnport', 'transport', 1],
    ['ca', 'abc', 3],
    ['namespace', 'xprotocol_namespace', 10],
  ])('%s → %s = %i', (a, b, d) => {
    expect(_editDistance(a, b)).toBe(d);
    expect(_editDistance(b, a)).toBe(d);
  });
});

describe('nearest key', () => {
  const source = [
    'name',
    'transport',
    'command',
    'args',
    'env',
    'url',
    'auth',
    'xprotocol_namespace',
    'capability_inference',
    'capabilities',
    'schema_overrides',
    'tool_allowlist',
    'rate_limit',
  ];
  it.each([
    ['transprot', 'transport'],
    ['Transport', 'transport'],
    ['xprotocol-namespace', 'xprotocol_namespace'],
    ['xprotocolNamespace', 'xprotocol_namespace'],
    ['namespace', 'xprotocol_namespace'],
    ['capabilites', 'capabilities'],
    ['capability', 'capabilities'],
    ['tool_allow_list', 'tool_allowlist'],
    ['toolAllowList', 'tool_allowlist'],
    ['ratelimit', 'rate_limit'],
    ['schema_override', 'schema_overrides'],
    ['arg', 'args'],
    ['envs', 'env'],
  ])('%s → %s', (typo, expected) => {
    expect(_nearestKey(typo, source)).toBe(expected);
  });
  it.each([['colour'], ['x'], ['base'], ['lity'], ['']])('nothing close to %j', (typo) => {
    expect(_nearestKey(typo, source)).toBeUndefined();
  });
});
