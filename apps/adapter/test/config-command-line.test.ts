// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${NAME} text
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitCommandLine } from '../src/config/index.js';
import { base, load, problems } from './config-helpers.js';

describe('splitCommandLine', () => {
  it.each([
    ['blanks', 'npx  -y\t@scope/server\n/data', ['npx', '-y', '@scope/server', '/data']],
    ['single quotes', "node 'my server.js' 'a\"b'", ['node', 'my server.js', 'a"b']],
    ['double quotes', 'node "my server.js" "a\'b"', ['node', 'my server.js', "a'b"]],
    [
      'escapes in double quotes',
      'echo "a\\"b" "c\\\\d" "e\\$f" "g\\x"',
      ['echo', 'a"b', 'c\\d', 'e$f', 'g\\x'],
    ],
    ['backslash outside quotes', 'echo a\\ b \\"c\\"', ['echo', 'a b', '"c"']],
    ['line continuation', 'echo a\\\nb', ['echo', 'ab']],
    ['empty words', 'cmd \'\' ""', ['cmd', '', '']],
    ['adjacent quoting', `a'b'"c"d`, ['abcd']],
    ['quoted operators are literal', "sh -c 'a && b | c > d'", ['sh', '-c', 'a && b | c > d']],
    ['a tilde inside a word', 'ls a~b', ['ls', 'a~b']],
    ['a lone dollar', 'echo $ 5$', ['echo', '$', '5$']],
    ['single-quoted expansions', "echo '$HOME' '~/x'", ['echo', '$HOME', '~/x']],
  ])('%s', (_id, text, argv) => {
    expect(splitCommandLine(text)).toEqual({ ok: true, argv });
  });

  it.each([
    ['unbalanced single quote', "node 'x", 'unbalanced single quote (opened at character 6)'],
    ['unbalanced double quote', 'node "x', 'unbalanced double quote (opened at character 6)'],
    ['trailing backslash', 'node x\\', 'a backslash at the end escapes nothing'],
    ['empty', '   ', 'the command is empty'],
    [
      'a pipe',
      'a | b',
      'contains the shell operator "|" (character 3); the command is not run through a shell: quote it to pass it literally, or run a script',
    ],
    [
      'a redirect',
      'a >> log',
      'contains the shell operator ">>" (character 3); the command is not run through a shell: quote it to pass it literally, or run a script',
    ],
    [
      'a variable',
      'node $HOME/x.js',
      'contains the shell expansion "$HOME" (character 6); the command is not run through a shell: write ${NAME} for an environment variable, or quote it to pass it literally',
    ],
    [
      'a command substitution',
      'node $(pwd)/x.js',
      'contains the shell expansion "$(pwd)" (character 6); the command is not run through a shell: write ${NAME} for an environment variable, or quote it to pass it literally',
    ],
    [
      'a variable in double quotes',
      'node "$HOME/x.js"',
      'contains the shell expansion "$HOME" inside double quotes (character 7); the command is not run through a shell: write ${NAME} for an environment variable, or use single quotes to pass it literally',
    ],
    [
      'a leading tilde',
      'node ~/x.js',
      'a word starts with "~" (character 6); the command is not run through a shell, so "~" is not expanded: write ${HOME}, or quote it to pass it literally',
    ],
  ])('refuses %s', (_id, text, reason) => {
    expect(splitCommandLine(text)).toEqual({ ok: false, reason });
  });

  it('round-trips any argv quoted with single quotes (property)', () => {
    const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme-ascii' }), { minLength: 1, maxLength: 8 }), (argv) => {
        expect(splitCommandLine(argv.map(quote).join(' '))).toEqual({ ok: true, argv });
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it('round-trips any argv quoted with double quotes and backslashes (property)', () => {
    const quote = (word: string) => `"${word.replace(/["\\$`]/g, (ch) => `\\${ch}`)}"`;
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme-ascii' }), { minLength: 1, maxLength: 8 }), (argv) => {
        expect(splitCommandLine(argv.map(quote).join(' \t'))).toEqual({ ok: true, argv });
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('never throws, whatever the text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 60 }), (text) => {
        const result = splitCommandLine(text);
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 500, seed: 3 },
    );
  });
});

describe('command in the configuration', () => {
  it('splits the command and appends args (numbers become strings)', () => {
    const { config } = load(base('    args: ["--root", /srv, 8080, true]'));
    expect(config.mcpSources[0]?.command).toEqual([
      'npx',
      '-y',
      '@modelcontextprotocol/server-filesystem',
      '/tmp',
      '--root',
      '/srv',
      '8080',
      'true',
    ]);
  });
  it('takes an argv list as it is', () => {
    const { config } = load(
      base().replace(
        'command: npx -y @modelcontextprotocol/server-filesystem /tmp',
        'command: [node, "server with space.js", "a && b"]',
      ),
    );
    expect(config.mcpSources[0]?.command).toEqual(['node', 'server with space.js', 'a && b']);
  });
  it('refuses an unbalanced quote with its position in the file', () => {
    expect(problems(base().replace('/tmp', "'/tmp"))).toEqual([
      'config.yml:12:14 mcp_sources[0].command: cannot split the command: unbalanced single quote (opened at character 48)',
    ]);
  });
});
