/**
 * Full-string recognition: does a grammar's `root` derive exactly this text?
 *
 * The recognizer works like llama.cpp's (`llama_grammar_advance_stack` / `llama_grammar_accept`):
 * it keeps the set of parse stacks whose top is a terminal, and for each code point of the text
 * keeps those whose terminal matches, then expands rule calls until terminals are on top again.
 * Differences that make it fast and safe:
 * - stacks are shared, interned linked lists, so equal stacks are the same object and duplicate
 *   work is skipped; each stack's successor and expansion are computed once per run;
 * - a repetition `x{m,n}` is one counted frame rather than n generated rules;
 * - grammars on which llama.cpp's expansion would never end are refused up front (validate.ts).
 * Character classes match code points, like llama.cpp; a lone surrogate in the text is read as
 * U+FFFD (what llama.cpp receives after UTF-8 conversion). Token elements never match text.
 * @module
 */
import type { Grammar } from './ast.js';
import { parseGrammar } from './parse.js';
import {
  _classHas,
  _firstSets,
  _K_ANY,
  _K_CALL,
  _K_CHAR,
  _K_CLASS,
  _K_REPEAT,
  type _Program,
  _program,
} from './program.js';
import { _checkGrammar } from './validate.js';

/** A compiled matcher: `true` when the whole of `text` is derived from the grammar's `root`. */
export type GrammarMatcher = (text: string) => boolean;

const textCache = new Map<string, GrammarMatcher>();
const TEXT_CACHE_SIZE = 32;

/**
 * Compiles a grammar (GBNF text or a parsed {@link Grammar}) into a reusable matcher. Throws
 * {@link GbnfGrammarError} for a grammar llama.cpp would refuse.
 * @example
 * const isBool = compileMatcher('root ::= "true" | "false"');
 * isBool('true'); // true
 * isBool('yes'); // false
 */
export function compileMatcher(grammar: string | Grammar): GrammarMatcher {
  const g = typeof grammar === 'string' ? parseGrammar(grammar) : grammar;
  _checkGrammar(g);
  const program = _program(g);
  return (text: string) => run(program, text);
}

/**
 * True when `grammar` (GBNF text or a parsed {@link Grammar}) derives exactly `text` from `root`.
 * Compiled matchers for the last few grammar texts are cached; for many texts against one grammar,
 * {@link compileMatcher} once.
 * @example
 * matches('root ::= [0-9]+ ("." [0-9]+)?', '3.14'); // true
 */
export function matches(grammar: string | Grammar, text: string): boolean {
  if (typeof grammar !== 'string') return compileMatcher(grammar)(text);
  let m = textCache.get(grammar);
  if (m) {
    textCache.delete(grammar);
  } else {
    m = compileMatcher(grammar);
    if (textCache.size >= TEXT_CACHE_SIZE) {
      const oldest = textCache.keys().next().value;
      if (oldest !== undefined) textCache.delete(oldest);
    }
  }
  textCache.set(grammar, m);
  return m(text);
}

/** One interned stack: `pc`/`count` is the top frame, `below` the rest (null: empty stack). */
class Stack {
  /** Interned children: the first two inline, the rest in a map. */
  key1 = -1;
  kid1: Stack | undefined = undefined;
  key2 = -1;
  kid2: Stack | undefined = undefined;
  kids: Map<number, Stack> | undefined = undefined;
  /** The stack after the top terminal matched (cached). */
  succ: Stack | undefined = undefined;
  /** Its expansion for lookahead `la1` (−1: end of text), then others in `more`. */
  la1 = -2;
  closure1: Stack[] | undefined = undefined;
  more: Map<number, Stack[]> | undefined = undefined;
  /** Dedup marks: `mark` within one expansion, `seen` within one step. */
  mark = 0;
  seen = 0;
  constructor(
    readonly pc: number,
    readonly count: number,
    readonly below: Stack | null,
  ) {}
}

/** The code points of `text`; a lone surrogate becomes U+FFFD. */
function codePoints(text: string): Int32Array {
  const out = new Int32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
      } else c = 0xfffd;
    } else if (c >= 0xdc00 && c <= 0xdfff) c = 0xfffd;
    out[n++] = c;
  }
  return out.subarray(0, n);
}

function run(p: _Program, text: string): boolean {
  const { kind, arg, next, alts, classes, repMax, repBody } = p;
  const first = _firstSets(p);
  const repMin = first.repMin;
  const repNullable = first.repNullable;
  const fAscii = first.ascii;
  const fWide = first.wide;
  const fNullable = first.nullable;
  const nPc = kind.length;
  const bottom = new Stack(-1, 0, null); // the empty stack: the root has been matched
  let markGen = 0;
  let stepGen = 0;

  const push = (below: Stack, pc: number, count: number): Stack => {
    const key = count * nPc + pc;
    if (below.key1 === key) return below.kid1 as Stack;
    if (below.key2 === key) return below.kid2 as Stack;
    if (below.key1 < 0) {
      const s = new Stack(pc, count, below);
      below.key1 = key;
      below.kid1 = s;
      return s;
    }
    if (below.key2 < 0) {
      const s = new Stack(pc, count, below);
      below.key2 = key;
      below.kid2 = s;
      return s;
    }
    below.kids ??= new Map();
    let s = below.kids.get(key);
    if (!s) {
      s = new Stack(pc, count, below);
      below.kids.set(key, s);
    }
    return s;
  };
  /** The interned stack `below` + (`pc`, `count`), if it exists. */
  const find = (below: Stack, pc: number, count: number): Stack | undefined => {
    const key = count * nPc + pc;
    if (below.key1 === key) return below.kid1;
    if (below.key2 === key) return below.kid2;
    return below.kids?.get(key);
  };
  /**
   * Can the rest of a sequence from node `pc` (entered afresh) start with `la`, or match nothing?
   * `la` −1 is the end of the text. Pruning here only skips stacks that would die on `la`.
   */
  const viable = (pc: number, la: number): boolean => {
    if (fNullable[pc] === 1) return true;
    if (la < 0) return false;
    if (la < 128) return ((fAscii[pc * 4 + (la >>> 5)] ?? 0) & (1 << (la & 31))) !== 0;
    return fWide[pc] === 1;
  };
  const termMatches = (pc: number, c: number): boolean => {
    if (c < 0) return false;
    const k = kind[pc];
    if (k === _K_CHAR) return arg[pc] === c;
    if (k === _K_CLASS) return _classHas(classes[arg[pc] ?? 0] as (typeof classes)[number], c);
    return k === _K_ANY;
  };
  const todo: Stack[] = [];
  const expand = (start: Stack, la: number): Stack[] => {
    const out: Stack[] = [];
    const gen = ++markGen;
    todo.length = 0;
    todo.push(start);
    while (todo.length > 0) {
      const s = todo.pop() as Stack;
      if (s.mark === gen) continue;
      s.mark = gen;
      if (s === bottom) {
        if (la < 0) out.push(s);
        continue;
      }
      const pc = s.pc;
      const k = kind[pc];
      const below = s.below as Stack;
      if (k === _K_CALL) {
        const nx = next[pc] ?? -1;
        const cont = nx >= 0 ? push(below, nx, 0) : below;
        for (const f of alts[arg[pc] ?? 0] ?? []) {
          if (f < 0) todo.push(cont);
          else if (viable(f, la)) todo.push(push(cont, f, 0));
        }
      } else if (k === _K_REPEAT) {
        const r = arg[pc] ?? 0;
        const min = repMin[r] ?? 0;
        const max = repMax[r] ?? -1;
        const n = s.count;
        // an item that can be empty: the same frame with fewer iterations counted, already
        // expanded here, offers everything this one does (this stops chains of empty iterations)
        if (n > 0 && repNullable[r] === 1 && find(below, pc, n - 1)?.mark === gen) continue;
        const nx = next[pc] ?? -1;
        if (n >= min && (nx < 0 || viable(nx, la))) todo.push(nx >= 0 ? push(below, nx, 0) : below);
        if (max < 0 || n < max) {
          const n1 = max < 0 ? Math.min(n + 1, min) : n + 1;
          const ret = n1 === max ? (nx >= 0 ? push(below, nx, 0) : below) : push(below, pc, n1);
          for (const f of alts[repBody[r] ?? 0] ?? []) {
            // an empty iteration only matters below the minimum: above it, this frame already
            // offers everything the frame with one more iteration counted does
            if (f < 0) {
              if (n < min) todo.push(ret);
            } else if (viable(f, la)) todo.push(push(ret, f, 0));
          }
        }
      } else if (termMatches(pc, la)) {
        out.push(s);
      }
    }
    return out;
  };

  const cps = codePoints(text);
  const len = cps.length;
  // the initial set: root's alternatives expanded from the empty stack, for the first character
  let active: Stack[] = [];
  let gen = ++stepGen;
  const la0 = len > 0 ? (cps[0] ?? -1) : -1;
  for (const f of alts[p.root] ?? []) {
    if (f >= 0 && !viable(f, la0)) continue;
    for (const s of f < 0 ? expand(bottom, la0) : expand(push(bottom, f, 0), la0)) {
      if (s.seen !== gen) {
        s.seen = gen;
        active.push(s);
      }
    }
  }
  for (let i = 0; i < len; i++) {
    if (active.length === 0) return false;
    // every active stack has a terminal on top that matches cps[i]
    const la = i + 1 < len ? (cps[i + 1] ?? -1) : -1;
    const nextActive: Stack[] = [];
    gen = ++stepGen;
    for (const s of active) {
      let succ = s.succ;
      if (!succ) {
        const nx = next[s.pc] ?? -1;
        succ = nx >= 0 ? push(s.below as Stack, nx, 0) : (s.below as Stack);
        s.succ = succ;
      }
      let closure: Stack[] | undefined;
      if (succ.la1 === la) closure = succ.closure1;
      else if (succ.la1 === -2) {
        closure = expand(succ, la);
        succ.la1 = la;
        succ.closure1 = closure;
      } else {
        succ.more ??= new Map();
        closure = succ.more.get(la);
        if (!closure) {
          closure = expand(succ, la);
          succ.more.set(la, closure);
        }
      }
      if (!closure) continue;
      for (const t of closure) {
        if (t.seen !== gen) {
          t.seen = gen;
          nextActive.push(t);
        }
      }
    }
    active = nextActive;
  }
  return active.includes(bottom);
}
