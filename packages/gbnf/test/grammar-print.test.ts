import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GbnfGrammarError, type Grammar, parseGrammar, printGrammar } from '../src/index.js';
import { prng, randomGrammar } from './support/grammar-arbitrary.js';

const lit = (value: string) => ({ type: 'literal', value }) as const;

describe('printGrammar', () => {
  it('prints one rule per line with the shortest repetition operators', () => {
    const g = parseGrammar(
      'root ::= "a"{0,} "b"{1,} "c"{0,1} "d"{2} "e"{2,} "f"{2,5} x\nx ::= [^a-z\\-] | ( "q" | )',
    );
    expect(printGrammar(g)).toBe(
      'root ::= "a"* "b"+ "c"? "d"{2} "e"{2,} "f"{2,5} x\nx ::= [^a-z\\x2D] | ("q" | "")\n',
    );
  });

  it('escapes what llama.cpp needs escaped and nothing more', () => {
    const g: Grammar = {
      rules: [
        {
          name: 'root',
          alternatives: [
            [
              lit('q"\\\n\r\t\u0000\u007f\u2028é😀'),
              {
                type: 'class',
                negated: false,
                ranges: [
                  { from: 0x5e, to: 0x5e },
                  { from: 0x5d, to: 0x5d },
                  { from: 0x5b, to: 0x2d },
                  { from: 0xd800, to: 0x110000 },
                ],
              },
            ],
          ],
        },
      ],
    };
    expect(printGrammar(g)).toBe(
      'root ::= "q\\"\\\\\\n\\r\\t\\x00\\x7F\\u2028é😀" [\\x5E\\]\\[-\\x2D\\uD800-\\U00110000]\n',
    );
    expect(parseGrammar(printGrammar(g))).toEqual(g);
  });

  it.each([
    ['no root', { rules: [{ name: 'x', alternatives: [[]] }] }, /no "root" rule/],
    ['bad name', { rules: [{ name: 'my_rule', alternatives: [[]] }] }, /expected a rule name/],
    [
      'undefined rule',
      { rules: [{ name: 'root', alternatives: [[{ type: 'ref', name: 'y' }]] }] },
      /undefined rule "y"/,
    ],
    [
      'bound over 2000',
      { rules: [{ name: 'root', alternatives: [[{ type: 'repeat', item: lit('a'), min: 0, max: 2001 }]] }] },
      /maximum must be null or an integer in 0..2000/,
    ],
    [
      'repeat of an empty literal',
      { rules: [{ name: 'root', alternatives: [[{ type: 'repeat', item: lit(''), min: 0, max: null }]] }] },
      /cannot repeat an item that produces nothing/,
    ],
    [
      'empty class',
      { rules: [{ name: 'root', alternatives: [[{ type: 'class', negated: true, ranges: [] }]] }] },
      /at least one range/,
    ],
    [
      'lone surrogate',
      { rules: [{ name: 'root', alternatives: [[lit('\ud800')]] }] },
      /Unicode scalar values/,
    ],
  ] as const)('refuses a grammar llama.cpp would refuse or misread: %s', (_name, grammar, message) => {
    expect(() => printGrammar(grammar as Grammar)).toThrow(GbnfGrammarError);
    expect(() => printGrammar(grammar as Grammar)).toThrow(message);
  });

  it('round-trips: parseGrammar(printGrammar(g)) equals g (fast-check, random grammars)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.boolean(), (seed, recursive) => {
        const g = randomGrammar(prng(seed), { recursive, tokens: true });
        const text = printGrammar(g);
        expect(parseGrammar(text)).toEqual(g);
        expect(printGrammar(parseGrammar(text))).toBe(text);
      }),
      { numRuns: 500, seed: 3 },
    );
  });
});
