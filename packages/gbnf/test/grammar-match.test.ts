import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileMatcher, GbnfGrammarError, matches, parseGrammar } from '../src/index.js';
import { grammarToRegExp, prng, randomGrammar, randomText, sampleText } from './support/grammar-arbitrary.js';

describe('matches', () => {
  it('matches whole strings only', () => {
    const g = 'root ::= "ab" | "abc"';
    expect(matches(g, 'ab')).toBe(true);
    expect(matches(g, 'abc')).toBe(true);
    expect(matches(g, 'a')).toBe(false);
    expect(matches(g, 'abcd')).toBe(false);
    expect(matches(g, '')).toBe(false);
  });

  it('matches code points, not UTF-16 units, in classes, negated classes and "."', () => {
    expect(matches('root ::= [😀-😂]', '😁')).toBe(true);
    expect(matches('root ::= [^a]', '😁')).toBe(true);
    expect(matches('root ::= . .', '😁')).toBe(false);
    expect(matches('root ::= .', '😁')).toBe(true);
    expect(matches('root ::= .', '\n')).toBe(true);
    expect(matches('root ::= [^"\\\\\\x00-\\x1F]+', 'ab"')).toBe(false);
  });

  it('reads a lone surrogate in the text as U+FFFD, as llama.cpp receives it', () => {
    expect(matches('root ::= "\\uFFFD"', '\ud800')).toBe(true);
  });

  it('handles nullable rules, empty alternatives and nested optional items', () => {
    const g = 'root ::= a b a\na ::= "" | "x"\nb ::= ("y"?)*';
    for (const t of ['', 'x', 'xx', 'yyy', 'xyyx']) expect(matches(g, t), t).toBe(true);
    expect(matches(g, 'xxx')).toBe(false);
  });

  it('counts bounded repetitions exactly, also large ones', () => {
    const g = 'root ::= [0-9]{2,1000} "x"';
    expect(matches(g, '1x')).toBe(false);
    expect(matches(g, `${'1'.repeat(2)}x`)).toBe(true);
    expect(matches(g, `${'1'.repeat(1000)}x`)).toBe(true);
    expect(matches(g, `${'1'.repeat(1001)}x`)).toBe(false);
    const nested = compileMatcher('root ::= ("ab"{1,3}){2,600}');
    expect(nested('ab'.repeat(2))).toBe(true);
    expect(nested('ab'.repeat(1800))).toBe(true);
    expect(nested('ab'.repeat(1801))).toBe(false);
  });

  it('counts repetitions of items that may be empty (x{m,n} is x{0,n} then)', () => {
    const m = compileMatcher('root ::= ("a" | ""){1000} | b{3,2000} "!"\nb ::= "b"?');
    expect(m('')).toBe(true);
    expect(m('a'.repeat(1000))).toBe(true);
    expect(m('a'.repeat(1001))).toBe(false);
    expect(m('!')).toBe(true);
    expect(m(`${'b'.repeat(2000)}!`)).toBe(true);
    expect(m(`${'b'.repeat(2001)}!`)).toBe(false);
  });

  it('handles recursion (balanced brackets)', () => {
    const m = compileMatcher('root ::= b*\nb ::= "(" b* ")" | "[" b* "]"');
    expect(m('([]())[[]]')).toBe(true);
    expect(m('([)]')).toBe(false);
    expect(m(`${'('.repeat(500)}${')'.repeat(500)}`)).toBe(true);
    expect(m(`${'('.repeat(500)}${')'.repeat(499)}`)).toBe(false);
  });

  it('never matches tokens against text', () => {
    expect(matches('root ::= <[1]> | "a"', 'a')).toBe(true);
    expect(matches('root ::= !<[1]>', 'a')).toBe(false);
  });

  it('accepts a parsed grammar as well as text, and refuses a bad one', () => {
    expect(matches(parseGrammar('root ::= "a"+'), 'aaa')).toBe(true);
    expect(() =>
      matches({ rules: [{ name: 'root', alternatives: [[{ type: 'ref', name: 'root' }]] }] }, ''),
    ).toThrow(GbnfGrammarError);
  });

  it("checks a 60 KB JSON document against llama.cpp's json.gbnf", () => {
    const json = compileMatcher(JSON_GBNF);
    const doc = {
      items: Array.from({ length: 600 }, (_, i) => ({
        id: i,
        name: `item ${i} "quoted" \\ é`,
        tags: ['a', 'b', 'c'],
        score: i / 7,
        ok: i % 2 === 0,
        none: null,
      })),
    };
    const text = JSON.stringify(doc, null, 1).replaceAll('\n ', '\n');
    expect(text.length).toBeGreaterThan(60_000);
    expect(json(text)).toBe(true);
    expect(json(`${text.slice(0, -1)},}`)).toBe(false);
  });
});

describe('matches agrees with an independent oracle (fast-check)', () => {
  it('a RegExp of the same language, on sampled and random texts of random non-recursive grammars', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const rand = prng(seed);
        const g = randomGrammar(rand);
        const m = compileMatcher(g);
        const re = grammarToRegExp(g);
        for (let i = 0; i < 12; i++) {
          const t = i % 2 === 0 ? (sampleText(g, rand) ?? randomText(rand)) : randomText(rand);
          expect(m(t), `seed ${seed} text ${JSON.stringify(t)}`).toBe(re.test(t));
        }
      }),
      { numRuns: 400, seed: 11 },
    );
  });

  it('every sampled text of a random recursive grammar matches', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const rand = prng(seed);
        const g = randomGrammar(rand, { recursive: true });
        const m = compileMatcher(g);
        for (let i = 0; i < 6; i++) {
          const t = sampleText(g, rand);
          if (t !== undefined) expect(m(t), `seed ${seed} text ${JSON.stringify(t)}`).toBe(true);
        }
      }),
      { numRuns: 300, seed: 12 },
    );
  });
});

/** llama.cpp grammars/json.gbnf (MIT), with `root ::= object` widened to any value. */
const JSON_GBNF = String.raw`root   ::= ws value
value  ::= object | array | string | number | ("true" | "false" | "null") ws

object ::=
  "{" ws (
            string ":" ws value
    ("," ws string ":" ws value)*
  )? "}" ws

array  ::=
  "[" ws (
            value
    ("," ws value)*
  )? "]" ws

string ::=
  "\"" (
    [^"\\\x7F\x00-\x1F] |
    "\\" (["\\bfnrt] | "u" [0-9a-fA-F]{4}) # escapes
  )* "\"" ws

number ::= ("-"? ([0-9] | [1-9] [0-9]{0,15})) ("." [0-9]+)? ([eE] [-+]? [0-9] [1-9]{0,15})? ws

ws ::= | " " | "\n" [ \t]{0,20}
`;
