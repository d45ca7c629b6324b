// The gate's verdicts on given ratios (no processes).
import { describe, expect, test } from 'vitest';
import { checkRatios } from '../src/gate.js';

describe('checkRatios', () => {
  const limits = { limits: { 'a/b': { reference: 2, margin: 1.5 }, 'c/d': { reference: 1, margin: 1.5 } } };

  test('a ratio up to reference × margin passes, above it fails', () => {
    const verdicts = checkRatios({ 'a/b': 3, 'c/d': 1.51 }, limits);
    expect(verdicts.map((v) => [v.key, v.limit, v.ok])).toEqual([
      ['a/b', 3, true],
      ['c/d', 1.5, false],
    ]);
  });

  test('a reference ratio that was not measured fails', () => {
    const verdicts = checkRatios({ 'a/b': 1 }, limits);
    expect(verdicts.find((v) => v.key === 'c/d')?.ok).toBe(false);
  });

  test('NaN (a suite that measured nothing) fails', () => {
    expect(checkRatios({ 'a/b': Number.NaN, 'c/d': 1 }, limits)[0]?.ok).toBe(false);
  });
});
