/**
 * Shell-style splitting of an upstream `command` into argv (docs/config.md: split shell-style,
 * never run through a shell). The quoting rules are the POSIX shell's:
 * - blanks (space, tab, newline) separate words;
 * - `'…'` keeps everything literally;
 * - `"…"` keeps everything literally except `\"`, `\\`, `` \` ``, `\$` and backslash-newline
 *   (an unescaped `$NAME`, `$(…)` or backtick inside is refused, as a shell would expand it);
 * - outside quotes a backslash keeps the next character literally (backslash-newline is removed);
 * - `''` and `""` make an empty word.
 *
 * Because no shell runs, what a shell would interpret is refused unless quoted, instead of being
 * passed on literally and failing obscurely later: the operators `|`, `&`, `;`, `<`, `>`, `(`,
 * `)`, backticks, `$NAME` / `$(…)` expansions and a word-leading `~`.
 * @module
 */

/** The words of a command line, or why it cannot be split. */
export type SplitResult = { ok: true; argv: string[] } | { ok: false; reason: string };

const BLANK = /[ \t\n\r]/;
const OPERATOR = /[|&;<>()`]/;

/**
 * Splits a command line into argv without running a shell.
 * @example
 * splitCommandLine(`npx -y "@scope/server" --root '/my data'`);
 * // { ok: true, argv: ['npx', '-y', '@scope/server', '--root', '/my data'] }
 * splitCommandLine('node "server.js'); // { ok: false, reason: 'unbalanced double quote (opened at character 6)' }
 */
export function splitCommandLine(text: string): SplitResult {
  const argv: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i]!;
    if (BLANK.test(ch)) {
      if (inWord) argv.push(word);
      word = '';
      inWord = false;
      i++;
      continue;
    }
    if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return { ok: false, reason: `unbalanced single quote (opened at character ${i + 1})` };
      word += text.slice(i + 1, end);
      inWord = true;
      i = end + 1;
      continue;
    }
    if (ch === '"') {
      const start = i;
      i++;
      let closed = false;
      while (i < n) {
        const c = text[i]!;
        if (c === '"') {
          closed = true;
          i++;
          break;
        }
        if (c === '\\' && i + 1 < n) {
          const next = text[i + 1]!;
          if (next === '\n') {
            i += 2;
            continue;
          }
          if (next === '"' || next === '\\' || next === '`' || next === '$') {
            word += next;
            i += 2;
            continue;
          }
        }
        if (c === '`' || (c === '$' && /[A-Za-z_{(]/.test(text[i + 1] ?? ''))) {
          const what = c === '`' ? '`' : _expansionAt(text, i);
          return {
            ok: false,
            reason: `contains the shell expansion ${JSON.stringify(what)} inside double quotes (character ${i + 1}); the command is not run through a shell: write \${NAME} for an environment variable, or use single quotes to pass it literally`,
          };
        }
        word += c;
        i++;
      }
      if (!closed) return { ok: false, reason: `unbalanced double quote (opened at character ${start + 1})` };
      inWord = true;
      continue;
    }
    if (ch === '\\') {
      if (i + 1 >= n) return { ok: false, reason: 'a backslash at the end escapes nothing' };
      const next = text[i + 1]!;
      if (next !== '\n') {
        word += next;
        inWord = true;
      }
      i += 2;
      continue;
    }
    if (OPERATOR.test(ch)) {
      const op = ch === text[i + 1] && (ch === '|' || ch === '&' || ch === ';' || ch === '>') ? ch + ch : ch;
      return {
        ok: false,
        reason: `contains the shell operator ${JSON.stringify(op)} (character ${i + 1}); the command is not run through a shell: quote it to pass it literally, or run a script`,
      };
    }
    if (ch === '$' && /[A-Za-z_{(]/.test(text[i + 1] ?? '')) {
      return {
        ok: false,
        reason: `contains the shell expansion ${JSON.stringify(_expansionAt(text, i))} (character ${i + 1}); the command is not run through a shell: write \${NAME} for an environment variable, or quote it to pass it literally`,
      };
    }
    if (ch === '~' && !inWord) {
      return {
        ok: false,
        reason: `a word starts with "~" (character ${i + 1}); the command is not run through a shell, so "~" is not expanded: write \${HOME}, or quote it to pass it literally`,
      };
    }
    word += ch;
    inWord = true;
    i++;
  }
  if (inWord) argv.push(word);
  if (argv.length === 0) return { ok: false, reason: 'the command is empty' };
  return { ok: true, argv };
}

function _expansionAt(text: string, i: number): string {
  const match = /^\$(\([^)]*\)?|\{[^}]*\}?|[A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(i));
  const found = match ? match[0] : '$';
  return found.length > 40 ? `${found.slice(0, 37)}...` : found;
}
