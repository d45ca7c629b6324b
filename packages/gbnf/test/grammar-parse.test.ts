import { describe, expect, it } from 'vitest';
import { GbnfError, GbnfGrammarError, type Grammar, parseGrammar } from '../src/index.js';

/** The parse error of `text` (fails the test when it parses). */
function parseError(text: string): GbnfGrammarError {
  try {
    parseGrammar(text);
  } catch (error) {
    expect(error).toBeInstanceOf(GbnfGrammarError);
    expect(error).toBeInstanceOf(GbnfError);
    return error as GbnfGrammarError;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
}

const rootOf = (g: Grammar) => g.rules.find((r) => r.name === 'root')?.alternatives;

describe('parseGrammar: what llama.cpp accepts', () => {
  it('reads literals, classes, refs, groups, any and repetitions', () => {
    const g = parseGrammar('root ::= "a" [b-d^] x ( "y" | ) . [^z]? x{2,} x{1,3} x{4}\nx ::= "x"');
    expect(rootOf(g)).toEqual([
      [
        { type: 'literal', value: 'a' },
        {
          type: 'class',
          negated: false,
          ranges: [
            { from: 98, to: 100 },
            { from: 94, to: 94 },
          ],
        },
        { type: 'ref', name: 'x' },
        { type: 'group', alternatives: [[{ type: 'literal', value: 'y' }], []] },
        { type: 'any' },
        {
          type: 'repeat',
          item: { type: 'class', negated: true, ranges: [{ from: 122, to: 122 }] },
          min: 0,
          max: 1,
        },
        { type: 'repeat', item: { type: 'ref', name: 'x' }, min: 2, max: null },
        { type: 'repeat', item: { type: 'ref', name: 'x' }, min: 1, max: 3 },
        { type: 'repeat', item: { type: 'ref', name: 'x' }, min: 4, max: 4 },
      ],
    ]);
  });

  it('decodes every escape llama.cpp knows (\\x \\u \\U \\t \\r \\n \\\\ \\" \\[ \\] \\-)', () => {
    const g = parseGrammar('root ::= "\\x41\\u00e9\\U0001F600\\t\\r\\n\\\\\\"\\[\\]\\-"');
    expect(rootOf(g)).toEqual([[{ type: 'literal', value: 'Aé😀\t\r\n\\"[]-' }]]);
  });

  it('reads raw UTF-8 and keeps code points (not UTF-16 units)', () => {
    const g = parseGrammar('root ::= "日本" [😀-😂]');
    expect(rootOf(g)?.[0]?.[1]).toEqual({
      type: 'class',
      negated: false,
      ranges: [{ from: 0x1f600, to: 0x1f602 }],
    });
  });

  it('treats "-" before "]" as a character and [a-b-c] as a range then "-" and "c"', () => {
    expect(rootOf(parseGrammar('root ::= [a-]'))?.[0]?.[0]).toEqual({
      type: 'class',
      negated: false,
      ranges: [
        { from: 97, to: 97 },
        { from: 45, to: 45 },
      ],
    });
    expect(rootOf(parseGrammar('root ::= [a-b-c]'))?.[0]?.[0]).toEqual({
      type: 'class',
      negated: false,
      ranges: [
        { from: 97, to: 98 },
        { from: 45, to: 45 },
        { from: 99, to: 99 },
      ],
    });
  });

  it('reads "", [] and [^] as nothing, as llama.cpp does', () => {
    expect(rootOf(parseGrammar('root ::= [] "a" [^] | ""'))).toEqual([[{ type: 'literal', value: 'a' }], []]);
  });

  it('lets an empty last alternative swallow the newline, as llama.cpp does', () => {
    expect(rootOf(parseGrammar('root ::= "a" |\nx\nx ::= "x"'))).toEqual([
      [{ type: 'literal', value: 'a' }],
      [{ type: 'ref', name: 'x' }],
    ]);
  });

  it('ends a rule at a newline outside groups, even before a "|"', () => {
    expect(parseError('root ::= "a" # c\n  | "b"').message).toMatch(/2:3: expected a rule name/);
  });

  it('skips comments and allows newlines after ::=, after | and inside groups', () => {
    const g = parseGrammar('# leading\nroot ::= # c\n  "a" | # c\n  ( "b" # c\n "c"\n )\r\n\r\nx ::= "x"');
    expect(g.rules.map((r) => r.name)).toEqual(['root', 'x']);
    expect(rootOf(g)?.length).toBe(2);
  });

  it('accepts names with digits and dashes, in any order, and keeps the last of two definitions', () => {
    const g = parseGrammar('root ::= 1-a\n1-a ::= "x"\n1-a ::= "y"');
    expect(g.rules[1]).toEqual({ name: '1-a', alternatives: [[{ type: 'literal', value: 'y' }]] });
  });

  it('stores a maximum over 2000 as unbounded, like llama.cpp', () => {
    expect(rootOf(parseGrammar('root ::= "a"{0,2001}'))?.[0]?.[0]).toEqual({
      type: 'repeat',
      item: { type: 'literal', value: 'a' },
      min: 0,
      max: null,
    });
  });

  it('allows spaces inside braces and repetition of a repetition', () => {
    expect(rootOf(parseGrammar('root ::= "a"{ 1 , 2 }*'))?.[0]?.[0]).toEqual({
      type: 'repeat',
      item: { type: 'repeat', item: { type: 'literal', value: 'a' }, min: 1, max: 2 },
      min: 0,
      max: null,
    });
  });

  it('reads <[id]> and !<[id]> tokens', () => {
    expect(rootOf(parseGrammar('root ::= <[12]> !<[7]>'))).toEqual([
      [
        { type: 'token', id: 12, negated: false },
        { type: 'token', id: 7, negated: true },
      ],
    ]);
  });
});

describe('parseGrammar: what llama.cpp refuses, with line and column', () => {
  const cases: [string, string, RegExp, string?][] = [
    ['empty grammar', '  # nothing\n', /expected at least one rule/],
    ['missing ::=', 'root = "a"', /1:6: expected "::=" after rule name "root"/, '::='],
    ['rule continued on the next line', 'root ::= "a"\n  | "b"', /2:3: expected a rule name/],
    ['unknown escape', 'root ::= "\\q"', /1:11: unknown escape "\\\\q"/],
    ['short \\x escape', 'root ::= "\\x4"', /expected 2 hex digits after "\\x"/],
    ['unterminated literal', 'root ::= "abc', /1:10: unterminated string literal/],
    ['unterminated class', 'root ::= [abc', /unterminated character class/],
    ['unclosed group', 'root ::= ( "a"', /expected "\)" to close the group at 1:10/],
    ['stray character', 'root ::= "a" ]', /1:14: expected the end of the line after rule "root"/],
    ['nothing to repeat', 'root ::= * "a"', /1:10: expected an item before "\*"/],
    ['repeat after an alternative bar', 'root ::= "a" | +', /expected an item before "\+"/],
    ['repeat of an empty literal', 'root ::= ""*', /expected an item before "\*"/],
    ['repeat after x{0}', 'root ::= "a"{0}?', /expected an item before "\?"/],
    ['brace without integer', 'root ::= "a"{x}', /expected an integer after "\{"/],
    ['brace without close', 'root ::= "a"{1,2', /expected "}" to close the repetition/],
    ['minimum over 2000', 'root ::= "a"{2001}', /minimum 2001 is over llama.cpp's limit of 2000/],
    ['bound over 2^64', 'root ::= "a"{0,99999999999999999999}', /out of range/],
    ['max below min', 'root ::= "a"{3,2}', /maximum below its minimum/],
    ['repetition budget', 'root ::= ("a"? "b"?){1000}', /repeats 3 generated rule\(s\) 1000 times/],
    [
      'repetition budget across stacked repetitions',
      'root ::= "a"{50}{50}',
      /repeats 50 generated rule\(s\) 50 times/,
    ],
    ['token by name', 'root ::= <think>', /need a model vocabulary/],
    ['bang without token', 'root ::= !"a"', /expected "<" after "!"/],
    ['undefined rule', 'root ::= "a"\n  # x\nx ::= y', /3:7: undefined rule "y"/],
    ['no root', 'start ::= "a"', /no "root" rule/],
    ['direct left recursion', 'root ::= root "a" | "b"', /1:1: left recursion: root → root/],
    [
      'left recursion through an empty alternative',
      'root ::= e root "a" | "b"\ne ::= | "x"',
      /left recursion/,
    ],
    ['left recursion through x*', 'root ::= "a"* root | "b"', /left recursion/],
    ['left recursion through a group', 'root ::= ("x" | ) root "a" | "b"', /left recursion/],
    ['unbounded repetition of a nullable group', 'root ::= ("a" | "")*', /left recursion/],
    [
      'left recursion llama.cpp misses but loops on',
      'root ::= b root "x" | "y"\nb ::= c\nc ::= ""',
      /matcher would loop forever/,
    ],
    ['NUL in grammar text', 'root ::= "a\u0000"', /NUL character/],
  ];
  it.each(cases)('%s', (_name, text, message, expected) => {
    const error = parseError(text);
    expect(error.message).toMatch(message);
    if (expected) expect(error.expected).toBe(expected);
    expect(['GRAMMAR_SYNTAX', 'GRAMMAR_INVALID']).toContain(error.code);
  });

  it('gives line and column in code points', () => {
    const error = parseError('root ::= "é😀" | ]');
    expect(error.location).toEqual({ line: 1, column: 17, offset: 17 });
  });

  it('accepts tail-position cycles through nullable rules, as llama.cpp does', () => {
    expect(() => parseGrammar('root ::= ("a"?)*')).not.toThrow();
    expect(() => parseGrammar('root ::= n ("b" root)?\nn ::= m\nm ::= ""')).not.toThrow();
  });
});
