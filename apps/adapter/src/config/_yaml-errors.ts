/**
 * The YAML library's syntax errors in plain words: each error code becomes a sentence saying what
 * was wrong and what was expected, placed where the construct at fault opened (an unclosed quote
 * or bracket: where it opened, not the end of the file), and one cause gives one error — after a
 * tab in the indentation, the errors it set off in the rest of that top-level section are not
 * reported (the parser misread those lines because of the tab), and the tabs of that section are
 * named in the one error. See docs/config.md, "How a file is read".
 * @module
 */
import { type CST, Parser, type YAMLError } from 'yaml';

/** A 1-based line and column. */
interface _Position {
  line: number;
  column: number;
}

/** One syntax error, in plain words, at its place. */
export interface _YamlSyntaxError extends _Position {
  readonly message: string;
}

/** A CST token that opens something that must be closed: a quoted string or a flow collection. */
interface _Opener {
  offset: number;
  /** `"`, `'`, `[` or `{`. */
  char: string;
  /** Where it ends (the offset after its last character). */
  end: number;
  /** True when the closing character is there. */
  closed: boolean;
}

/** An error on its way out: where, what, and whether a tab in the indentation caused it. */
interface _Placed extends _YamlSyntaxError {
  tab: boolean;
  /** For an unclosed string or bracket: the last line it took in (errors up to there are its). */
  through?: number;
}

/**
 * The syntax errors of `text`, one per cause, in the order of the file. `position` turns a
 * character offset into a 1-based line and column.
 */
export function _yamlSyntaxErrors(
  text: string,
  errors: readonly YAMLError[],
  position: (offset: number) => _Position,
): _YamlSyntaxError[] {
  const lines = text.split('\n');
  let openers: _Opener[] | undefined;
  const placed = errors.map((error): _Placed => {
    const at = position(error.pos[0]);
    const tabColumn = _tabInIndentation(lines[at.line - 1] ?? '');
    if (error.code === 'TAB_AS_INDENT' || tabColumn !== undefined) {
      return { line: at.line, column: tabColumn ?? at.column, tab: true, message: _TAB };
    }
    if (_OPENED.test(error.message)) {
      openers ??= _openers(text);
      const opened = _openerOf(openers, error.pos[0], error.message);
      if (opened) {
        const closing = _isBracket(opened.char)
          ? _closingBracket(text, opened.offset, opened.char)
          : undefined;
        return {
          ...position(opened.offset),
          tab: false,
          message: _unclosed(opened, text, closing === undefined ? undefined : position(closing).line),
          through: Math.max(at.line, position(closing ?? Math.min(opened.end, text.length)).line),
        };
      }
    }
    return { ...at, tab: false, message: _plain(error, text) };
  });
  return _onePerCause(placed, lines);
}

const _TAB = 'a tab in the indentation: YAML indents with spaces only; replace the tab with spaces';

/** Library messages about something opened and not closed where it should be. */
const _OPENED = /^Missing closing ["']quote|^Flow (sequence|map) (in block collection )?must/;

/** The 1-based column of a tab among the leading blanks of `line`, if there is one. */
function _tabInIndentation(line: string): number | undefined {
  const indentation = /^[ \t]*/.exec(line)?.[0] ?? '';
  const at = indentation.indexOf('\t');
  // A line of blanks only is no indentation of anything.
  return at === -1 || indentation.length === line.trimEnd().length ? undefined : at + 1;
}

/**
 * Drops the errors a tab caused (after it, up to the next top-level line: the parser misread
 * them) and names the section's other tabbed lines in the tab's error; then one error per line.
 */
function _onePerCause(placed: _Placed[], lines: readonly string[]): _YamlSyntaxError[] {
  const sorted = [...placed].sort((a, b) => a.line - b.line || a.column - b.column);
  const out: _YamlSyntaxError[] = [];
  const seenLines = new Set<number>();
  let tab: { error: _Placed; until: number; more: number[] } | undefined;
  const closeTab = () => {
    if (!tab) return;
    const { error, more } = tab;
    const also =
      more.length === 0 ? '' : ` (${_lineList(more)} ${more.length === 1 ? 'has' : 'have'} tabs too)`;
    out.push({ line: error.line, column: error.column, message: `${error.message}${also}` });
    tab = undefined;
  };
  // The last line an unclosed string or bracket took in: the errors up to there are its own.
  let through = 0;
  for (const error of sorted) {
    if (error.line <= through && !error.tab) continue;
    if (tab && error.line >= tab.until) closeTab();
    if (tab) {
      if (error.tab && error.line !== tab.error.line && !tab.more.includes(error.line))
        tab.more.push(error.line);
      continue;
    }
    if (seenLines.has(error.line)) continue;
    seenLines.add(error.line);
    through = Math.max(through, error.through ?? 0);
    if (error.tab) {
      tab = { error, until: _nextTopLevelLine(lines, error.line), more: [] };
      continue;
    }
    out.push({ line: error.line, column: error.column, message: error.message });
  }
  closeTab();
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** The 1-based number of the first line after `line` that starts a top-level key or item. */
function _nextTopLevelLine(lines: readonly string[], line: number): number {
  for (let n = line; n < lines.length; n++) {
    const text = lines[n] ?? '';
    if (/^[^\s#]/.test(text)) return n + 1;
  }
  return Number.POSITIVE_INFINITY;
}

/** `line 5`, `lines 5 and 6`, `lines 5, 6 and 9`. */
function _lineList(numbers: readonly number[]): string {
  if (numbers.length === 1) return `line ${numbers[0]}`;
  return `lines ${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
}

/** Every quoted string and flow collection of the document, from the parser's concrete tree. */
function _openers(text: string): _Opener[] {
  const found: _Opener[] = [];
  const stack: unknown[] = [...new Parser().parse(text)];
  while (stack.length > 0) {
    const token = stack.pop() as Record<string, unknown> | null;
    if (token === null || typeof token !== 'object') continue;
    if (token.type === 'double-quoted-scalar' || token.type === 'single-quoted-scalar') {
      const source = String(token.source);
      const char = source[0] ?? '"';
      const offset = Number(token.offset);
      found.push({ offset, char, end: offset + source.length, closed: _quoteClosed(source, char) });
    } else if (token.type === 'flow-collection') {
      const start = token.start as CST.SourceToken;
      const end = (token.end as CST.SourceToken[]).find((t) => t.source === ']' || t.source === '}');
      found.push({
        offset: start.offset,
        char: start.source,
        end: end ? end.offset + 1 : text.length,
        closed: end !== undefined,
      });
    }
    for (const value of Object.values(token))
      if (value !== null && typeof value === 'object') stack.push(value);
  }
  return found.sort((a, b) => a.offset - b.offset);
}

/** True when a quoted scalar's source ends with its closing quote. */
function _quoteClosed(source: string, quote: string): boolean {
  if (source.length < 2 || !source.endsWith(quote)) return false;
  const body = source.slice(1, -1);
  if (quote === '"') return (/\\*$/.exec(body)?.[0].length ?? 0) % 2 === 0;
  // In single quotes, '' is an escaped quote: an odd run of quotes at the end closes it.
  return ((/'*$/.exec(body)?.[0].length ?? 0) + 1) % 2 === 1;
}

/** The opener an error about something unclosed is about: the last one of its kind before it. */
function _openerOf(openers: readonly _Opener[], offset: number, message: string): _Opener | undefined {
  const kinds = message.startsWith('Missing closing') ? ['"', "'"] : ['[', '{'];
  const wanted = message.includes('"quote') ? '"' : message.includes("'quote") ? "'" : undefined;
  let best: _Opener | undefined;
  for (const opener of openers) {
    if (opener.offset > offset) break;
    if (!kinds.includes(opener.char) || (wanted !== undefined && opener.char !== wanted)) continue;
    if (opener.end >= offset || !opener.closed) best = opener;
  }
  return best;
}

const _isBracket = (char: string): boolean => char === '[' || char === '{';

/**
 * What is wrong with an opener that the parser found unclosed; `closingLine` is the line of the
 * bracket that closes it, if there is one.
 */
function _unclosed(opener: _Opener, text: string, closingLine: number | undefined): string {
  const { char } = opener;
  if (!_isBracket(char)) {
    const what = char === '"' ? 'the "…" string opened here' : "the '…' string opened here";
    return opener.end >= text.trimEnd().length
      ? `${what} is never closed: expected a closing ${char}; everything after it, to the end of the file, was read as the string`
      : `${what} is not closed on its line: expected a closing ${char} before the line ends (a string that goes on to the next line must be indented further than its key)`;
  }
  const close = char === '[' ? ']' : '}';
  const what = char === '[' ? 'the [ list opened here' : 'the { mapping opened here';
  if (closingLine === undefined) return `${what} is never closed: expected a ${close} after its last item`;
  return `${what} ends with the ${close} on line ${closingLine}, which is not indented enough: expected every line of it indented more than the key it belongs to`;
}

/** The offset of the bracket that closes the one at `offset`, skipping quoted strings and comments. */
function _closingBracket(text: string, offset: number, open: string): number | undefined {
  const close = open === '[' ? ']' : '}';
  let depth = 0;
  for (let i = offset; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end === -1) return undefined;
      i = end;
    } else if (c === '#' && /\s/.test(text[i - 1] ?? ' ')) {
      const end = text.indexOf('\n', i);
      if (end === -1) return undefined;
      i = end;
    } else if (c === open) depth++;
    else if (c === close && --depth === 0) return i;
  }
  return undefined;
}

/** A plain sentence for each library error, saying what was wrong and what was expected. */
function _plain(error: YAMLError, text: string): string {
  const message = error.message.replace(/ at line \d+, column \d+[\s\S]*$/, '').trim();
  switch (error.code) {
    case 'DUPLICATE_KEY': {
      const key = (/^("[^"\n]*"|'[^'\n]*'|[^:#\n]+)/.exec(text.slice(error.pos[0]))?.[1] ?? '').trim();
      return key === ''
        ? 'a duplicate key: a key may appear once in a mapping'
        : `duplicate key ${JSON.stringify(key)}: a key may appear once in a mapping`;
    }
    case 'MULTILINE_IMPLICIT_KEY':
      return 'expected "key: value" on one line, got a key that runs on to the next line: is a ":" missing (or the space after it), or is the next line indented too far?';
    case 'BLOCK_AS_IMPLICIT_KEY':
      return message.startsWith('A block sequence')
        ? 'a list item ("- …") where a key was expected: a mapping holds "key: value" lines or list items, not both (put the list under a key, indented)'
        : 'a second "key:" in one line: expected one "key: value" per line (quote the value if it contains ": ", or indent the line below as far as the keys beside it)';
    case 'BAD_INDENT':
      return _badIndent(message);
    case 'MISSING_CHAR':
      return _missingChar(message);
    case 'UNEXPECTED_TOKEN':
      return _unexpected(message);
    case 'MULTIPLE_DOCS':
      return 'a second YAML document starts here: expected one document per configuration file (remove this "---" or what follows it)';
    case 'BLOCK_IN_FLOW':
      return 'a "key: value" or "- item" inside [ ] or { }: expected items separated by commas inside brackets (a missing comma?), or a block list without the brackets';
    case 'BAD_DQ_ESCAPE':
      return `invalid escape ${message.replace(/^Invalid escape sequence /, '')} in a "double-quoted" string: expected one of \\\\ \\" \\n \\t \\uXXXX; write the value in 'single quotes' to keep backslashes as they are`;
    case 'BAD_SCALAR_START':
      return `a plain value cannot start with ${message.slice(-1)}: expected the value in quotes`;
    case 'MULTIPLE_ANCHORS':
      return 'two anchors (&name) on one value: expected at most one';
    case 'MULTIPLE_TAGS':
      return 'two tags (!tag) on one value: expected at most one';
    case 'ALIAS_PROPS':
      return 'an alias (*name) with an anchor or a tag: expected the alias alone';
    case 'BAD_PROP_ORDER':
      return 'an anchor or tag before "-", "?" or ":": expected it after the indicator';
    case 'BAD_ALIAS':
      return 'an empty anchor or alias name, or one ending in ":": expected &name or *name';
    case 'KEY_OVER_1024_CHARS':
      return 'a key longer than 1024 characters: expected a ":" within 1024 characters of the start of the key (is the ":" missing?)';
    case 'RESOURCE_EXHAUSTION':
      return 'aliases (*name) that expand to too many values: expected a document whose aliases do not multiply';
    default:
      return message.charAt(0).toLowerCase() + message.slice(1);
  }
}

function _badIndent(message: string): string {
  if (message.startsWith('All mapping items'))
    return 'a key not aligned with the keys above it in the same mapping: expected it at their column (or indented further under a key ending with ":")';
  if (message.startsWith('All sequence items'))
    return 'a list item not aligned with the items above it: expected every "- " of one list at the same column';
  if (message.startsWith('Block scalar'))
    return 'a line of a block text (| or >) indented less than its first line: expected every line of it indented at least as far';
  return message.charAt(0).toLowerCase() + message.slice(1);
}

function _missingChar(message: string): string {
  if (message.startsWith('Implicit map keys need'))
    return 'expected "key: value" here (a key, a colon and a space, then the value), got text with no ":" after it';
  if (message.startsWith('Sequence item without'))
    return 'a line indented between a list\'s "- " and its keys: expected a new item starting with "- ", or the line aligned with the keys of the item above';
  if (message.startsWith('Comments must be separated'))
    return 'a "#" right after a value: expected a space before a comment\'s "#" (or quote the value if the # belongs to it)';
  if (message.startsWith('Missing , '))
    return 'two items of [ ] or { } with nothing between them: expected a comma';
  if (message.startsWith('Missing space after :'))
    return 'a ":" inside { } with no space after it: expected ": " between a key and its value';
  if (message.startsWith('Tags and anchors'))
    return 'a tag or anchor joined to what follows: expected a space after it';
  return message.charAt(0).toLowerCase() + message.slice(1);
}

function _unexpected(message: string): string {
  if (/at node end$/.test(message))
    return 'more text after a complete value: expected the end of the line (quote the whole value if it goes on)';
  const bracket = /Unexpected (flow-seq-end|flow-map-end)/.exec(message)?.[1];
  if (bracket) {
    const [close, open] = bracket === 'flow-seq-end' ? [']', '['] : ['}', '{'];
    return `a ${close} with no ${open} open: expected it only to close a ${open}`;
  }
  if (/^Unexpected , in/.test(message))
    return 'a comma with no item before it: expected a value between two commas';
  if (/^Unexpected empty item/.test(message)) return 'an empty item: expected a value between two commas';
  return message.charAt(0).toLowerCase() + message.slice(1);
}
