import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { GbnfRegexError, regexToRe2 } from '../src/index.js';

/** RE2 (through regexToRe2) and the JavaScript engine agree on `pattern` over `texts`. */
function agree(pattern: string, texts: readonly string[], lenient = false): void {
  const js = new RegExp(pattern, lenient ? '' : 'u');
  const re2 = RE2JS.compile(regexToRe2(pattern, { lenient }));
  for (const text of texts) {
    expect(re2.test(text), `/${pattern}/ on ${JSON.stringify(text)}`).toBe(js.test(text));
  }
}

describe('regexToRe2: the same language as ECMAScript with the u flag', () => {
  it.each([
    ['unanchored', 'ab', ['ab', 'xaby', '', 'ba']],
    ['anchors', '^a|b$', ['ax', 'xb', 'xa', 'bx', 'b\n', '\na']],
    ['$ is the end of input, not before a final newline', '^ab$', ['ab', 'ab\n', 'abab']],
    ['empty pattern', '', ['', 'x']],
    ['dot excludes the four line terminators', '^.$', ['a', '\n', '\r', '\u2028', '\u2029', '😀', '\u0085']],
    [
      '\\s is ECMAScript white space',
      '^\\s+$',
      [' \t\n\v\f\r', '\u00a0\u1680\u2000\u200a\u2028\u202f\u205f\u3000\ufeff', '\u0085', 'a'],
    ],
    ['\\S, \\d, \\w, \\W', '^\\S\\d\\w\\W$', ['a1_-', ' 1_-', 'a1é-', 'a1_é']],
    ['classes and negated classes', '^[a-c_\\d][^a-z]?$', ['a', 'b5', 'zZ', '_-', '9a']],
    ['\\s inside a negated class', '^[^\\s,]+$', ['ab', 'a b', 'a\u3000b', 'a,b']],
    ['unicode escapes', '^\\u00e9\\u{1F600}\\uD83D\\uDE01$', ['é😀😁', 'é😀']],
    ['unicode property', '^\\p{Lu}\\P{L}$', ['A1', 'É!', 'a1', 'AB']],
    ['quantifiers', '^a{2}b{1,3}c{2,}d*e+f?$', ['aabcce', 'aabbbccccdddeef', 'abcce', 'aabbbbcce']],
    ['groups and alternation', '^(?:ab|c(?<n>d|e))+$', ['ab', 'cdab', 'ce', 'cf', '']],
    ['word boundaries', '\\bfoo\\B', ['foox', 'a foo', 'foo', 'xfoox']],
    ['the ReDoS classic', '^(a+)+$', ['aaaa', `${'a'.repeat(12)}!`, '']],
    [
      'a real date pattern',
      '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2})?(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})?)?$',
      ['2024-01-02', '2024-01-02T10:11:12.5Z', '2024-1-02'],
    ],
    ['an empty class matches nothing', '^[]?a$', ['a', 'b']],
  ])('%s: %s', (_name, pattern, texts) => agree(pattern, texts));

  it('reads non-Unicode patterns by Annex B when lenient', () => {
    agree('^[\\w\\_\\:]+$', ['a_:', 'a-'], true);
  });

  it('agrees with the JavaScript engine on random strings over a small alphabet', () => {
    const patterns = ['^(a|b)*c$', 'a{2,3}b', '^[^ab]+$', '(ab|a)(bc|c)', '^\\s*\\S+\\s*$', 'c?$'];
    fc.assert(
      fc.property(
        fc.constantFrom(...patterns),
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', '\n') }),
        (p, t) => {
          expect(RE2JS.compile(regexToRe2(p)).test(t)).toBe(new RegExp(p, 'u').test(t));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('regexToRe2: refusals', () => {
  it.each([
    ['(a)\\1', 'backreference'],
    ['(?<x>a)\\k<x>', 'backreference'],
    ['a(?=b)', 'lookahead'],
    ['a(?!b)', 'lookahead'],
    ['(?<=a)b', 'lookbehind'],
    ['(?<!a)b', 'lookbehind'],
  ])('%s is refused as a %s', (pattern, construct) => {
    let error: unknown;
    try {
      regexToRe2(pattern);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GbnfRegexError);
    expect((error as GbnfRegexError).code).toBe('REGEX_UNSUPPORTED');
    expect((error as GbnfRegexError).construct).toBe(construct);
  });

  it('an invalid pattern is a syntax error', () => {
    expect(() => regexToRe2('(')).toThrow(/not a valid ECMAScript regex/);
  });
});
