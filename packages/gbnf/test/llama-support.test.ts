import { describe, expect, it } from 'vitest';
import { llamaGrammar } from './support/llama.js';

// The wrapper around node-llama-cpp's internal full-string matcher must itself be checked: it has
// to accept what the grammar derives, reject the rest (prefixes, extensions, other strings) and
// report llama.cpp's refusals.
describe('test/support/llama.ts (node-llama-cpp 3.22.1, prebuilt linux-x64, no model)', () => {
  it('accepts exactly the full strings of a grammar', async () => {
    const v = await llamaGrammar('root ::= "ab" [0-9]* | "x"');
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.test('ab')).toBe(true);
    expect(v.test('ab123')).toBe(true);
    expect(v.test('x')).toBe(true);
    expect(v.test('a')).toBe(false);
    expect(v.test('abx')).toBe(false);
    expect(v.test('xx')).toBe(false);
    expect(v.test('')).toBe(false);
  });

  it('matches code points (a non-BMP class and "." take one emoji)', async () => {
    const v = await llamaGrammar('root ::= [😀-😂] .');
    expect(v.ok && v.test('😁😀')).toBe(true);
    expect(v.ok && v.test('😁')).toBe(false);
  });

  it('reports what llama.cpp refuses', async () => {
    for (const bad of [
      'root ::= "\\q"',
      'root ::= root "a" | "b"',
      'x ::= "a"',
      'root ::= y',
      'root ::= "a"{2001}',
    ]) {
      const v = await llamaGrammar(bad);
      expect(v.ok, bad).toBe(false);
    }
  });
});
