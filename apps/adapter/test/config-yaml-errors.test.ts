// YAML syntax errors in plain words: one small document per error code of the `yaml` library
// (the code each document raises is checked, so a library update that changes it fails here),
// each reported once, where the construct at fault opened, saying what was wrong and what was
// expected; a tab reported once however many errors it set off — also through the built CLI.
import { afterAll, describe, expect, it } from 'vitest';
import { LineCounter, parseDocument } from 'yaml';
import { problems, refusal } from './config-helpers.js';
import { Processes } from './support/processes.js';

/** The library's error codes for `text`, in order. */
function codes(text: string): string[] {
  return parseDocument(text, {
    lineCounter: new LineCounter(),
    prettyErrors: false,
    uniqueKeys: true,
  }).errors.map((e) => e.code);
}

const P = 'config.yml';

describe('each error code of the YAML library, in plain words', () => {
  it.each([
    [
      'TAB_AS_INDENT',
      'identity:\n\tkey_file: a\n',
      [
        `${P}:2:1 invalid YAML: a tab in the indentation: YAML indents with spaces only; replace the tab with spaces`,
      ],
    ],
    [
      'MISSING_CHAR',
      'identity:\n  key_file: "./a.key\nrelay:\n  urls: [ws://127.0.0.1:8765]\n',
      [
        `${P}:2:13 invalid YAML: the "…" string opened here is never closed: expected a closing "; everything after it, to the end of the file, was read as the string`,
      ],
    ],
    [
      'MISSING_CHAR',
      "identity:\n  key_file: './a.key\nrelay:\n  urls: []\n",
      [
        `${P}:2:13 invalid YAML: the '…' string opened here is never closed: expected a closing '; everything after it, to the end of the file, was read as the string`,
      ],
    ],
    [
      'MISSING_CHAR',
      'identity:\n  key_file: "a\nrelay: "b"\n',
      [
        `${P}:2:13 invalid YAML: the "…" string opened here is not closed on its line: expected a closing " before the line ends (a string that goes on to the next line must be indented further than its key)`,
      ],
    ],
    [
      'MISSING_CHAR',
      'identity:\n  key_file: a\n  display_name\n',
      [
        `${P}:3:3 invalid YAML: expected "key: value" here (a key, a colon and a space, then the value), got text with no ":" after it`,
      ],
    ],
    [
      'MISSING_CHAR',
      'mcp_sources:\n- name: x\n transport: stdio\n',
      [
        `${P}:3:1 invalid YAML: a line indented between a list's "- " and its keys: expected a new item starting with "- ", or the line aligned with the keys of the item above`,
      ],
    ],
    [
      'MISSING_CHAR',
      'identity:\n  display_name: "x"# a comment\n',
      [
        `${P}:2:20 invalid YAML: a "#" right after a value: expected a space before a comment's "#" (or quote the value if the # belongs to it)`,
      ],
    ],
    [
      'MISSING_CHAR',
      'relay:\n  urls: ["ws://a" "ws://b"]\n',
      [`${P}:2:19 invalid YAML: two items of [ ] or { } with nothing between them: expected a comma`],
    ],
    [
      'MISSING_CHAR',
      'identity:\n  display_name: !!str"x"\n',
      [`${P}:2:22 invalid YAML: a tag or anchor joined to what follows: expected a space after it`],
    ],
    [
      'BAD_INDENT',
      'relay:\n  urls: [ws://a, ws://b\naccess:\n  default: deny\n',
      [`${P}:2:9 invalid YAML: the [ list opened here is never closed: expected a ] after its last item`],
    ],
    [
      'BAD_INDENT',
      'relay:\n  urls: [ws://a,\nws://b]\n',
      [
        `${P}:2:9 invalid YAML: the [ list opened here ends with the ] on line 3, which is not indented enough: expected every line of it indented more than the key it belongs to`,
      ],
    ],
    [
      'BAD_INDENT',
      'mcp_sources:\n  - name: a\n    env: {A: b,\nB: c}\n',
      [
        `${P}:3:10 invalid YAML: the { mapping opened here ends with the } on line 4, which is not indented enough: expected every line of it indented more than the key it belongs to`,
      ],
    ],
    [
      'BAD_INDENT',
      'identity:\n    key_file: a\n  display_name: x\n',
      [
        `${P}:3:1 invalid YAML: a key not aligned with the keys above it in the same mapping: expected it at their column (or indented further under a key ending with ":")`,
      ],
    ],
    [
      'MULTILINE_IMPLICIT_KEY',
      'identity:\n  key_file ./a.key\n  display_name: x\n',
      [
        `${P}:2:3 invalid YAML: expected "key: value" on one line, got a key that runs on to the next line: is a ":" missing (or the space after it), or is the next line indented too far?`,
      ],
    ],
    [
      'BLOCK_AS_IMPLICIT_KEY',
      'identity:\n  display_name: a: b\n',
      [
        `${P}:2:17 invalid YAML: a second "key:" in one line: expected one "key: value" per line (quote the value if it contains ": ", or indent the line below as far as the keys beside it)`,
      ],
    ],
    [
      'BLOCK_AS_IMPLICIT_KEY',
      'identity:\n  key_file: a\n  - b\n',
      [
        `${P}:3:1 invalid YAML: a list item ("- …") where a key was expected: a mapping holds "key: value" lines or list items, not both (put the list under a key, indented)`,
      ],
    ],
    [
      'DUPLICATE_KEY',
      'identity:\n  key_file: a\n  key_file: b\n',
      [`${P}:3:3 invalid YAML: duplicate key "key_file": a key may appear once in a mapping`],
    ],
    [
      'MULTIPLE_DOCS',
      'identity:\n  key_file: a\n---\nidentity:\n  key_file: b\n',
      [
        `${P}:3:1 invalid YAML: a second YAML document starts here: expected one document per configuration file (remove this "---" or what follows it)`,
      ],
    ],
    [
      'BLOCK_IN_FLOW',
      'mcp_sources:\n  - env: {A: 1 B: 2}\n',
      [
        `${P}:2:14 invalid YAML: a "key: value" or "- item" inside [ ] or { }: expected items separated by commas inside brackets (a missing comma?), or a block list without the brackets`,
      ],
    ],
    [
      'BAD_DQ_ESCAPE',
      'identity:\n  key_file: "C:\\keys\\a.key"\n',
      [
        `${P}:2:16 invalid YAML: invalid escape \\k in a "double-quoted" string: expected one of \\\\ \\" \\n \\t \\uXXXX; write the value in 'single quotes' to keep backslashes as they are`,
      ],
    ],
    [
      'BAD_SCALAR_START',
      'identity:\n  display_name: @me\n',
      [`${P}:2:17 invalid YAML: a plain value cannot start with @: expected the value in quotes`],
    ],
    [
      'UNEXPECTED_TOKEN',
      'identity:\n  display_name: "Ada" Lovelace\n',
      [
        `${P}:2:23 invalid YAML: more text after a complete value: expected the end of the line (quote the whole value if it goes on)`,
      ],
    ],
    [
      'UNEXPECTED_TOKEN',
      'relay:\n  urls: [ws://a]]\n',
      [`${P}:2:17 invalid YAML: a ] with no [ open: expected it only to close a [`],
    ],
    [
      'UNEXPECTED_TOKEN',
      'relay:\n  urls: [ws://a, , ws://b]\n',
      [`${P}:2:18 invalid YAML: a comma with no item before it: expected a value between two commas`],
    ],
    [
      'MULTIPLE_ANCHORS',
      'identity:\n  key_file: &a &b x\n',
      [`${P}:2:16 invalid YAML: two anchors (&name) on one value: expected at most one`],
    ],
    [
      'MULTIPLE_TAGS',
      'identity:\n  key_file: !!str !!str x\n',
      [`${P}:2:19 invalid YAML: two tags (!tag) on one value: expected at most one`],
    ],
    [
      'ALIAS_PROPS',
      'identity:\n  key_file: &k a\n  display_name: !!str *k\n',
      [`${P}:3:23 invalid YAML: an alias (*name) with an anchor or a tag: expected the alias alone`],
    ],
    [
      'BAD_ALIAS',
      'identity:\n  key_file: & a\n',
      [
        `${P}:2:13 invalid YAML: an empty anchor or alias name, or one ending in ":": expected &name or *name`,
      ],
    ],
    [
      'KEY_OVER_1024_CHARS',
      `identity:\n  ${'k'.repeat(1100)}: a\n`,
      [
        `${P}:2:3 invalid YAML: a key longer than 1024 characters: expected a ":" within 1024 characters of the start of the key (is the ":" missing?)`,
      ],
    ],
  ])('%s (case %#)', (code, text, expected) => {
    expect(codes(text), 'the code this document raises').toContain(code);
    const error = refusal(text);
    expect(error.code).toBe('CONFIG_SYNTAX');
    expect(error.message.split('\n')).toEqual(expected);
  });
});

describe('one error per cause', () => {
  const config = (line: string) =>
    [
      'identity:',
      '  key_file: ./a.key',
      'relay:',
      '  urls: [ws://127.0.0.1:8765]',
      'mcp_sources:',
      '  - name: memory',
      line,
      '    command: npx -y @modelcontextprotocol/server-memory',
      '    xprotocol_namespace: com.test.memory',
      '    env:',
      '      A: b',
      'access:',
      '  default: deny',
      '',
    ].join('\n');

  it('one tab: one error at the tab, not the errors it set off in the lines after it', () => {
    const text = config('\ttransport: stdio');
    expect(codes(text).length, 'the library reports a cascade').toBeGreaterThanOrEqual(7);
    expect(problems(text)).toEqual([
      `${P}:7:1 invalid YAML: a tab in the indentation: YAML indents with spaces only; replace the tab with spaces`,
    ]);
  });

  it('a tab after spaces is named as a tab (the library says only that the key is misaligned)', () => {
    const text = config('  \ttransport: stdio');
    expect(codes(text)).not.toContain('TAB_AS_INDENT');
    expect(problems(text)).toEqual([
      `${P}:7:3 invalid YAML: a tab in the indentation: YAML indents with spaces only; replace the tab with spaces`,
    ]);
  });

  it('the tabs of one section are one error naming each line; a tab in another section is its own', () => {
    const text =
      'mcp_sources:\n\t- name: x\n\t  transport: stdio\n\t  command: y\naccess:\n\tdefault: deny\n';
    expect(problems(text)).toEqual([
      `${P}:2:1 invalid YAML: a tab in the indentation: YAML indents with spaces only; replace the tab with spaces (lines 3 and 4 have tabs too)`,
      `${P}:6:1 invalid YAML: a tab in the indentation: YAML indents with spaces only; replace the tab with spaces`,
    ]);
  });

  it('an error before the tab, and one in a later section, are still reported', () => {
    const text = 'identity:\n  key_file: a\n  key_file: b\nrelay:\n\turls: []\n\tx y\naccess: [a\n';
    expect(problems(text)).toEqual([
      `${P}:3:3 invalid YAML: duplicate key "key_file": a key may appear once in a mapping`,
      `${P}:5:1 invalid YAML: a tab in the indentation: YAML indents with spaces only; replace the tab with spaces (line 6 has tabs too)`,
      `${P}:7:9 invalid YAML: the [ list opened here is never closed: expected a ] after its last item`,
    ]);
  });

  it('two errors the library reports at one place are one', () => {
    const text = 'identity:\n  key_file: a\n   display_name: x\n';
    expect(codes(text)).toEqual(['BLOCK_AS_IMPLICIT_KEY', 'MULTILINE_IMPLICIT_KEY']);
    expect(problems(text)).toHaveLength(1);
  });
});

describe('xprotocol-adapter validate (the built bin)', () => {
  const procs = new Processes();
  afterAll(() => procs.close());

  it('a file with a tab and an unclosed quote: exit 1, one line per cause, where each opened', async () => {
    const file = procs.file(
      'bad.yml',
      [
        'identity:',
        '  key_file: ./adapter.key',
        '  display_name: "My Adapter',
        'relay:',
        '  urls: [ws://127.0.0.1:8765]',
        '',
      ].join('\n'),
    );
    const tabbed = procs.file(
      'tabbed.yml',
      ['identity:', '  key_file: ./adapter.key', 'relay:', '\turls:', '\t  - ws://127.0.0.1:8765', ''].join(
        '\n',
      ),
    );
    const quote = await procs.cli(['validate', '--config', file]);
    expect(quote.code).toBe(1);
    expect(quote.stdout).toBe('');
    expect(quote.stderr).toBe(
      `xprotocol-adapter: ${file}:3:17 invalid YAML: the "…" string opened here is never closed: expected a closing "; everything after it, to the end of the file, was read as the string\n1 problem in ${file}\n`,
    );
    const tab = await procs.cli(['validate', '--config', tabbed]);
    expect(tab.code).toBe(1);
    expect(tab.stderr).toBe(
      `xprotocol-adapter: ${tabbed}:4:1 invalid YAML: a tab in the indentation: YAML indents with spaces only; replace the tab with spaces (line 5 has tabs too)\n1 problem in ${tabbed}\n`,
    );
  }, 60_000);
});
