import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileMatcher, parseGrammar } from '../src/index.js';
import { llamaGrammar } from './support/llama.js';

// Hand-written grammars: llama.cpp's parser and ours must give the same verdict, and on the
// grammars both accept, both matchers must give the expected verdict on every text.
interface Case {
  readonly id: string;
  readonly gbnf: string;
  readonly yes?: readonly string[];
  readonly no?: readonly string[];
}

const ACCEPTED: readonly Case[] = [
  { id: 'literal', gbnf: 'root ::= "hello"', yes: ['hello'], no: ['hell', 'hello!', ''] },
  { id: 'alternatives', gbnf: 'root ::= "a" | "bc" | ""', yes: ['a', 'bc', ''], no: ['b', 'abc'] },
  {
    id: 'escapes-short',
    gbnf: 'root ::= "\\t\\r\\n\\\\\\"\\[\\]\\-"',
    yes: ['\t\r\n\\"[]-'],
    no: ['\t\r\n\\"[]'],
  },
  { id: 'escapes-hex', gbnf: 'root ::= "\\x41\\u00E9\\U0001F600"', yes: ['Aé😀'], no: ['A\u00e9'] },
  { id: 'escape-nul', gbnf: 'root ::= "a" [\\x00] "b"', yes: ['a\u0000b'], no: ['ab'] },
  { id: 'raw-utf8', gbnf: 'root ::= "日本語" [а-я]+', yes: ['日本語да'], no: ['日本語', '日本語z'] },
  { id: 'class-ranges', gbnf: 'root ::= [a-zA-Z_0-9]+', yes: ['abc_Z9'], no: ['a-b', ''] },
  { id: 'class-negated', gbnf: 'root ::= [^"\\\\]*', yes: ['', 'abc', 'é😀'], no: ['a"', '\\'] },
  { id: 'class-trailing-dash', gbnf: 'root ::= [a-]+', yes: ['a-a'], no: ['b'] },
  { id: 'class-range-then-dash', gbnf: 'root ::= [a-c-e]+', yes: ['abc-e'], no: ['d'] },
  { id: 'class-dash-range', gbnf: 'root ::= [--/]+', yes: ['-./'], no: ['0'] },
  { id: 'class-brackets', gbnf: 'root ::= [[\\]]+', yes: ['[]]['], no: ['a'] },
  { id: 'class-reversed-range', gbnf: 'root ::= [z-a] | "x"', yes: ['x'], no: ['m', 'a'] },
  { id: 'class-negated-reversed', gbnf: 'root ::= [^z-a]', yes: ['m', '😀'], no: ['', 'mm'] },
  { id: 'class-escaped-dash', gbnf: 'root ::= [a\\-z]+', yes: ['a-z'], no: ['b'] },
  { id: 'class-caret-later', gbnf: 'root ::= [a^]+', yes: ['^a'], no: ['b'] },
  { id: 'class-astral', gbnf: 'root ::= [\\U0001F600-\\U0001F64F]{2}', yes: ['😀🙏'], no: ['😀', '😀a'] },
  { id: 'empty-class', gbnf: 'root ::= "a" [] "b" [^]', yes: ['ab'], no: ['a b', 'a'] },
  { id: 'any', gbnf: 'root ::= . "x" .', yes: ['axb', '\nx😀'], no: ['xb', 'ax'] },
  { id: 'star-plus-opt', gbnf: 'root ::= "a"* "b"+ "c"?', yes: ['b', 'aabbc'], no: ['', 'a', 'bcc'] },
  {
    id: 'braces',
    gbnf: 'root ::= "a"{2} "b"{1,} "c"{0,2} "d"{ 1 , 2 }',
    yes: ['aabd', 'aabbbccdd'],
    no: ['abd', 'aabcccd'],
  },
  { id: 'brace-zero', gbnf: 'root ::= "a" "b"{0} "c"{0,0}', yes: ['a'], no: ['ab', 'ac'] },
  { id: 'max-over-2000-is-unbounded', gbnf: 'root ::= "a"{0,2001}', yes: ['', 'a'.repeat(2500)], no: ['b'] },
  { id: 'max-2000', gbnf: 'root ::= "a"{0,2000}', yes: ['a'.repeat(2000)], no: ['a'.repeat(2001)] },
  { id: 'min-2000', gbnf: 'root ::= "a"{2000}', yes: ['a'.repeat(2000)], no: ['a'.repeat(1999)] },
  {
    id: 'repeat-of-repeat',
    gbnf: 'root ::= "ab"{1,2}{2}',
    yes: ['abab', 'abababab'],
    no: ['ab', 'ababababab'],
  },
  { id: 'repeat-literal-whole', gbnf: 'root ::= "ab"*', yes: ['', 'abab'], no: ['aba'] },
  { id: 'group-repeat', gbnf: 'root ::= ("a" | "bc")+ "." ', yes: ['abca.'], no: ['b.', '.'] },
  { id: 'group-newlines', gbnf: 'root ::= (\n  "a"\n  |\n  "b"\n)', yes: ['a', 'b'], no: ['ab'] },
  { id: 'newline-after-assign', gbnf: 'root ::=\n  "a"\nx ::= "x"', yes: ['a'], no: ['x'] },
  { id: 'newline-after-bar', gbnf: 'root ::= "a" |\n  "b"', yes: ['a', 'b'], no: [''] },
  { id: 'bar-swallows-newline', gbnf: 'root ::= "a" |\nx\nx ::= "x"', yes: ['a', 'x'], no: [''] },
  {
    id: 'comments',
    gbnf: '# head\nroot ::= "a" # tail\n# between\n\nb ::= "b" # unused',
    yes: ['a'],
    no: ['b'],
  },
  { id: 'hash-in-literal', gbnf: 'root ::= "#" [#]', yes: ['##'], no: ['#'] },
  { id: 'crlf', gbnf: 'root ::= a\r\na ::= "a"\r\n', yes: ['a'], no: [''] },
  { id: 'cr-only', gbnf: 'root ::= a\ra ::= "a"', yes: ['a'], no: [''] },
  { id: 'tabs', gbnf: 'root\t::=\t"a"\t"b"', yes: ['ab'], no: ['a'] },
  { id: 'no-spaces', gbnf: 'root::="a"b\nb::=[b]', yes: ['ab'], no: ['a'] },
  { id: 'names', gbnf: 'root ::= 1 -x A-b-\n1 ::= "1"\n-x ::= "x"\nA-b- ::= "z"', yes: ['1xz'], no: ['1x'] },
  { id: 'redefinition-last-wins', gbnf: 'root ::= "a"\nroot ::= "b"', yes: ['b'], no: ['a'] },
  { id: 'root-not-first', gbnf: 'a ::= "a"\nroot ::= a a', yes: ['aa'], no: ['a'] },
  { id: 'right-recursion', gbnf: 'root ::= "(" root ")" | ""', yes: ['', '((()))'], no: ['(()'] },
  {
    id: 'mutual-recursion',
    gbnf: 'root ::= a\na ::= "x" b | ""\nb ::= "y" a',
    yes: ['', 'xyxy'],
    no: ['xyx'],
  },
  {
    id: 'nullable-chain',
    gbnf: 'root ::= a b c "!"\na ::= "a"?\nb ::= a a\nc ::= | b',
    yes: ['!', 'aaaa!'],
    no: ['aaaaaa!'],
  },
  { id: 'tail-cycle-nullable', gbnf: 'root ::= ("a"?)*', yes: ['', 'aaa'], no: ['b'] },
  {
    id: 'tail-cycle-undetected',
    gbnf: 'root ::= n ("b" root)?\nn ::= m\nm ::= ""',
    yes: ['', 'bb'],
    no: ['a'],
  },
  {
    id: 'plus-of-group-with-nullable-alt',
    gbnf: 'root ::= ("a"? | "b")+',
    yes: ['', 'ab', 'bbb'],
    no: ['c'],
  },
  {
    id: 'bounded-nullable-group',
    gbnf: 'root ::= ("a" | ""){0,5} "b" ("c" | ""){3}',
    yes: ['b', 'aaaaab', 'bccc', 'abc'],
    no: ['aaaaaab', 'bcccc', ''],
  },
  {
    id: 'bounded-nullable-min',
    gbnf: 'root ::= ("a" | ""){4} | "x"',
    yes: ['', 'aaaa', 'x'],
    no: ['aaaaa', 'ax'],
  },
  { id: 'tokens', gbnf: 'root ::= "a" | <[5]> | !<[3]>', yes: ['a'], no: ['', 'b'] },
  { id: 'unused-undefined-after-redefinition', gbnf: 'root ::= zz\nroot ::= "a"', yes: ['a'], no: [''] },
  { id: 'dropped-undefined-ref', gbnf: 'root ::= "a" rot{0}', yes: ['a'], no: [''] },
  {
    id: 'group-budget-ok',
    gbnf: 'root ::= ("a"? "b"){1000}',
    yes: ['b'.repeat(1000), 'ab'.repeat(1000)],
    no: ['b'.repeat(999)],
  },
  {
    id: 'json-string',
    gbnf: 'root ::= "\\"" ([^"\\\\\\x00-\\x1F] | "\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4}))* "\\""',
    yes: ['"a\\"b\\u00e9"', '""'],
    no: ['"\\x"', '"a'],
  },
];

const REFUSED: readonly Case[] = [
  { id: 'empty', gbnf: '' },
  { id: 'only-comment', gbnf: '# nothing' },
  { id: 'missing-assign', gbnf: 'root "a"' },
  { id: 'single-colon', gbnf: 'root := "a"' },
  { id: 'underscore-name', gbnf: 'root ::= my_rule\nmy_rule ::= "a"' },
  { id: 'unknown-escape', gbnf: 'root ::= "\\d"' },
  { id: 'escape-slash', gbnf: 'root ::= "\\/"' },
  { id: 'escape-b', gbnf: 'root ::= "\\b"' },
  { id: 'short-u', gbnf: 'root ::= "\\u12"' },
  { id: 'unterminated-literal', gbnf: 'root ::= "abc' },
  { id: 'unterminated-class', gbnf: 'root ::= [abc' },
  { id: 'unterminated-range', gbnf: 'root ::= [a-' },
  { id: 'unclosed-group', gbnf: 'root ::= ("a"' },
  { id: 'stray-paren', gbnf: 'root ::= "a")' },
  { id: 'continued-line', gbnf: 'root ::= "a"\n| "b"' },
  { id: 'star-first', gbnf: 'root ::= *' },
  { id: 'plus-after-bar', gbnf: 'root ::= "a" | +' },
  { id: 'star-after-empty', gbnf: 'root ::= ""*' },
  { id: 'star-after-zero', gbnf: 'root ::= "a"{0}*' },
  { id: 'brace-empty', gbnf: 'root ::= "a"{}' },
  { id: 'brace-comma-first', gbnf: 'root ::= "a"{,3}' },
  { id: 'brace-open', gbnf: 'root ::= "a"{2' },
  { id: 'min-2001', gbnf: 'root ::= "a"{2001,}' },
  { id: 'budget', gbnf: 'root ::= ("a"? "b"?){1000}' },
  { id: 'budget-stacked', gbnf: 'root ::= "a"{100}{100}' },
  { id: 'token-name', gbnf: 'root ::= <eos>' },
  { id: 'bang-alone', gbnf: 'root ::= !"a"' },
  { id: 'token-unclosed', gbnf: 'root ::= <[12' },
  { id: 'undefined', gbnf: 'root ::= a' },
  { id: 'undefined-in-replaced-body', gbnf: 'root ::= zz\nroot ::= "a"\nb ::= "b"' },
  { id: 'no-root', gbnf: 'start ::= "a"' },
  { id: 'dropped-undefined-ref-below-a-rule', gbnf: 'root ::= "a" rot{0}\nb ::= "b"' },
  { id: 'undefined-ref-in-dropped-star', gbnf: 'root ::= "a" rot*{0}' },
  { id: 'left-recursion-in-dropped-group', gbnf: 'root ::= "a" (("b" | "")*){0}' },
  { id: 'left-direct', gbnf: 'root ::= root "a" | "b"' },
  { id: 'left-indirect', gbnf: 'root ::= a\na ::= b "x" | "y"\nb ::= root' },
  { id: 'left-through-empty', gbnf: 'root ::= e root "x" | "y"\ne ::= "" | "z"' },
  { id: 'left-through-star', gbnf: 'root ::= "z"* root "x" | "y"' },
  { id: 'left-through-optional', gbnf: 'root ::= "z"? root "x" | "y"' },
  { id: 'left-unreachable', gbnf: 'root ::= "a"\nx ::= x "b"' },
  { id: 'star-of-nullable-group', gbnf: 'root ::= ("a" | )*' },
];

describe('hand-written grammars: llama.cpp and we agree', () => {
  it.each(ACCEPTED)(
    '$id: both accept the grammar and agree on every text',
    async ({ id, gbnf, yes = [], no = [] }) => {
      const llama = await llamaGrammar(gbnf);
      expect(llama.ok, `${id}: llama.cpp refused: ${llama.ok ? '' : llama.error}`).toBe(true);
      const ours = compileMatcher(gbnf);
      for (const [texts, want] of [
        [yes, true],
        [no, false],
      ] as const) {
        for (const t of texts) {
          expect(ours(t), `${id} ours ${JSON.stringify(t.slice(0, 40))}`).toBe(want);
          expect(llama.ok && llama.test(t), `${id} llama ${JSON.stringify(t.slice(0, 40))}`).toBe(want);
        }
      }
    },
  );

  it.each(REFUSED)('$id: both refuse the grammar', async ({ id, gbnf }) => {
    expect(() => parseGrammar(gbnf), id).toThrow();
    const llama = await llamaGrammar(gbnf);
    expect(llama.ok, id).toBe(false);
  });
});

// The grammars shipped with llama.cpp (grammars/*.gbnf in the bundled source of node-llama-cpp).
const GRAMMARS = fileURLToPath(new URL('../node_modules/node-llama-cpp/llama/grammars', import.meta.url));
const SAMPLES: Record<string, { yes: string[]; no: string[] }> = {
  'arithmetic.gbnf': { yes: ['1+2*3=7\n', '(x-y)/2= a\n1=1\n'], no: ['1+2\n', '1=1'] },
  'json.gbnf': { yes: ['{"a": [1, 2.5e3, true, null, "x\\n"]}'], no: ['[1]', '{"a":}', '{"a": 01}'] },
  'json_arr.gbnf': { yes: ['[\n{"a": 1}\n]'], no: ['{"a": 1}'] },
  'list.gbnf': { yes: ['- a\n- b c\n'], no: ['a\n'] },
  'chess.gbnf': { yes: ['1. e4 e5\n2. Nf3 Nc6\n'], no: ['1. e9\n'] },
};

describe("llama.cpp's own grammars", () => {
  const files = readdirSync(GRAMMARS).filter((f) => f.endsWith('.gbnf'));
  it('are all present', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
  });
  it.each(files)('%s parses in both; samples agree', async (file) => {
    const gbnf = readFileSync(join(GRAMMARS, file), 'utf8');
    const llama = await llamaGrammar(gbnf);
    expect(llama.ok, file).toBe(true);
    const ours = compileMatcher(gbnf);
    const { yes, no } = SAMPLES[file] ?? { yes: [], no: [] };
    for (const t of yes) {
      expect(llama.ok && llama.test(t), `${file} llama ${JSON.stringify(t)}`).toBe(true);
      expect(ours(t), `${file} ours ${JSON.stringify(t)}`).toBe(true);
    }
    for (const t of no) {
      expect(llama.ok && llama.test(t), `${file} llama ${JSON.stringify(t)}`).toBe(false);
      expect(ours(t), `${file} ours ${JSON.stringify(t)}`).toBe(false);
    }
  });
});
