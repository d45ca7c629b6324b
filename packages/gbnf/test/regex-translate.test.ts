import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GbnfError, GbnfRegexError, parseGrammar, regexToGbnf } from '../src/index.js';
import { prng } from './support/grammar-arbitrary.js';
import { isWellFormed, jsonEncodeAnyForm, patternMatcher } from './support/regex-harness.js';

/** Checks `pattern` against RegExp on `texts`, in canonical and random JSON forms. */
function agree(pattern: string, texts: readonly string[]): void {
  const re = new RegExp(pattern, 'u');
  const all = patternMatcher(pattern, 'all');
  const canonical = patternMatcher(pattern, 'canonical');
  const rand = prng(pattern.length);
  for (const t of texts) {
    const want = re.test(t);
    expect(all(JSON.stringify(t)), `/${pattern}/ all ${JSON.stringify(t)}`).toBe(want);
    expect(canonical(JSON.stringify(t)), `/${pattern}/ canonical ${JSON.stringify(t)}`).toBe(want);
    const other = jsonEncodeAnyForm(t, rand);
    expect(all(other), `/${pattern}/ all as ${other}`).toBe(want);
  }
}

describe('regexToGbnf: constructs', () => {
  it.each([
    ['unanchored', 'ab', ['ab', 'xaby', '', 'a b', 'ba']],
    ['anchored start', '^ab', ['ab', 'abx', 'xab']],
    ['anchored end', 'ab$', ['ab', 'xab', 'abx']],
    ['anchored both', '^ab$', ['ab', 'abab', 'a']],
    ['alternation with anchors', '^a|b$', ['ax', 'xb', 'xa', 'bx']],
    ['anchors inside a whole group', '(^a|b$)', ['ax', 'xb', 'xa', 'bx']],
    ['empty pattern', '', ['', 'x']],
    ['dot excludes line terminators', '^.$', ['a', '\n', '\r', '\u2028', '😀', 'é']],
    ['classes', '^[a-c_\\d][^a-z]?$', ['a', 'b5', 'zZ', '_-', '9a']],
    ['escapes', '^\\d\\D\\w\\W\\s\\S$', ['1a_- x', '1a_\u00a0\u3000y', 'aa_- x']],
    ['json-special characters', '^["\\\\/\\b\\f\\n\\r\\t]+$', ['"', '\\/', '\b\f\n\r\t', 'a']],
    ['control characters', '^[\\0-\\x1f\\x7f]+$', ['\u0000\u0001\u001f\u007f', ' ']],
    ['unicode escapes', '^\\u00e9\\u{1F600}\\uD83D\\uDE01$', ['é😀😁', 'é😀']],
    ['astral ranges', '^[\\u{1F600}-\\u{1F64F}\\u{10000}-\\u{10400}]+$', ['😀🙏𐀀𐐀', '😀a', '𐐁']],
    ['unicode property', '^\\p{Lu}\\P{L}$', ['A1', 'É!', 'a1', 'AB']],
    ['quantifiers', '^a{2}b{1,3}c{2,}d*e+f?$', ['aabcce', 'aabbbccccdddeef', 'abcce', 'aabbbbcce']],
    ['lazy quantifiers', '^a+?b*?$', ['a', 'aabb', 'b']],
    ['nested nullable repetitions', '^(a?|b*)*c(|d)+$', ['c', 'ababbc', 'cdd', 'cd', 'x']],
    ['groups of every kind', '^(?:a|(b)|(?<n>c))+$', ['abc', 'cba', 'd']],
    ['large bounds', '^a{2100}$', ['a'.repeat(2100), 'a'.repeat(2099), 'a'.repeat(2101)]],
    [
      'large open bound',
      '^(?:ab){0,2500}$',
      ['', 'ab'.repeat(2500), 'ab'.repeat(2501), `${'ab'.repeat(1200)}a`],
    ],
    ['word boundary at ends', '\\bfoo\\b', ['foo', 'a foo.', 'foobar', 'xfoo', ' foo']],
    ['non-boundary at ends', '\\Bfoo\\B', ['xfoox', 'foo', 'xfoo', ' foo ']],
    ['boundary next to non-word', '^\\b-$', ['-', 'a-']],
    ['boundary anchored', '^\\bab\\b$', ['ab', 'abc']],
    ['empty class', 'a[]|b', ['a', 'b', '']],
    ['match-nothing pattern', '[]', ['', 'a']],
    ['negated empty class', '^[^]$', ['a', '\n', '😀', '']],
    ['class with dash and bracket', '^[\\]\\-a-]+$', [']-a', 'b']],
    [
      'escaped slash and syntax characters',
      '^\\/\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$$',
      ['/.*+?()[]{}|^$', 'x'],
    ],
  ] as const)('%s: /%s/', (_name, pattern, texts) => {
    agree(pattern, texts);
  });

  it('names rules after the prefix, deterministically', () => {
    const a = regexToGbnf('^[a-z]+@x$', { prefix: 'email-1' });
    expect(a.root).toBe('email-1');
    expect(a.rules.every((r) => r.name === 'email-1' || r.name.startsWith('email-1-'))).toBe(true);
    expect(regexToGbnf('^[a-z]+@x$', { prefix: 'email-1' }).gbnf).toBe(a.gbnf);
    expect(a.gbnf.startsWith('email-1 ::= ')).toBe(true);
    expect(() => parseGrammar(`root ::= "\\"" email-1 "\\""\n${a.gbnf}`)).not.toThrow();
  });

  it('writes readable canonical rules', () => {
    expect(regexToGbnf('^ab[0-9]{2}$', { prefix: 'p', escapes: 'canonical' }).gbnf).toBe(
      'p ::= "ab" [0-9]{2}\n',
    );
  });
});

describe('regexToGbnf: refusals', () => {
  it.each([
    ['backreference', '(a)\\1', 'backreference', 3],
    ['named backreference', '(?<x>a)\\k<x>', 'backreference', 7],
    ['lookahead', 'a(?=b)', 'lookahead', 1],
    ['negative lookahead', '^(?!x)', 'lookahead', 1],
    ['lookbehind', '(?<=a)b', 'lookbehind', 0],
    ['anchor in the middle', 'a^b', 'anchor', 1],
    ['end anchor in a repetition', '(a$)*', 'anchor', 2],
    ['boundary in the middle', 'a\\bb', 'word boundary', 1],
    ['boundary next to mixed characters', '\\b[a-]', 'word boundary', 0],
  ] as const)(
    '%s: /%s/ → REGEX_UNSUPPORTED naming the construct and offset',
    (_name, pattern, construct, offset) => {
      try {
        regexToGbnf(pattern);
        expect.unreachable(`/${pattern}/ was translated`);
      } catch (error) {
        expect(error).toBeInstanceOf(GbnfRegexError);
        expect(error).toBeInstanceOf(GbnfError);
        const e = error as GbnfRegexError;
        expect(e.code).toBe('REGEX_UNSUPPORTED');
        expect(e.construct).toBe(construct);
        expect(e.offset).toBe(offset);
        expect(e.message).toContain(`at offset ${offset}`);
      }
    },
  );

  it('refuses invalid u-mode syntax with REGEX_SYNTAX, and reads it with lenient', () => {
    for (const p of ['^agent\\_run\\_', '{model}.explore', 'a{2', '[\\w-.]']) {
      expect(() => regexToGbnf(p), p).toThrow(expect.objectContaining({ code: 'REGEX_SYNTAX' }));
    }
    const m = patternMatcher('^agent\\_run\\_', 'all', true);
    expect(m('"agent_run_1"')).toBe(true);
    expect(m('"agent-run_"')).toBe(false);
    const braces = patternMatcher('{model}\\.x', 'all', true);
    expect(braces('"a{model}.x"')).toBe(true);
    const cls = patternMatcher('^[\\w-.]+$', 'all', true);
    expect(cls('"a-.b"')).toBe(true);
    expect(cls('"a,b"')).toBe(false);
    expect(() => regexToGbnf('(', { lenient: true })).toThrow(
      expect.objectContaining({ code: 'REGEX_SYNTAX' }),
    );
  });

  it('refuses a bad prefix', () => {
    expect(() => regexToGbnf('a', { prefix: 'my_rule' })).toThrow(/rule-name prefix/);
  });
});

describe('regexToGbnf: random strings agree with RegExp (fast-check)', () => {
  const patterns = ['^[a-z]+(-[a-z0-9]+)*$', 'x|y+z', '^\\w*\\s?\\d{1,3}$', '(ab|b)+a?$', '^[^"\\\\]*"'];
  it.each(patterns)('/%s/', (pattern) => {
    const re = new RegExp(pattern, 'u');
    const m = patternMatcher(pattern);
    fc.assert(
      fc.property(
        fc.oneof(fc.stringMatching(re), fc.string({ unit: fc.constantFrom(...'abxyz-1 9"\\\n😀é') })),
        fc.integer(),
        (s, seed) => {
          fc.pre(isWellFormed(s));
          expect(m(jsonEncodeAnyForm(s, prng(seed))), JSON.stringify(s)).toBe(re.test(s));
        },
      ),
      { numRuns: 200, seed: 5 },
    );
  });
});
