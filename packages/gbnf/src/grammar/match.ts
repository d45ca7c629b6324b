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
  type _Class,
  _classHas,
  type _FirstSets,
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

/** True when `text` is derived from the program's root: one recognition from start to end. */
function run(p: _Program, text: string): boolean {
  const recognizer = new Recognizer(p, _firstSets(p));
  const cps = codePoints(text);
  const len = cps.length;
  let active = recognizer.initialStacks(len > 0 ? (cps[0] ?? -1) : -1);
  for (let i = 0; i < len; i++) {
    if (active.length === 0) return false;
    // every active stack has a terminal on top that matches cps[i]
    active = recognizer.step(active, i + 1 < len ? (cps[i + 1] ?? -1) : -1);
  }
  return active.includes(recognizer.bottom);
}

/**
 * The state of one recognition: the interned stacks (all rooted at {@link bottom}), the
 * generation counters that mark them, and the program's arrays at hand. One per text: its stacks
 * are garbage once the text is matched.
 */
class Recognizer {
  /** The empty stack: the root has been matched. */
  readonly bottom = new Stack(-1, 0, null);
  private readonly kind: Uint8Array;
  private readonly arg: Int32Array;
  private readonly next: Int32Array;
  private readonly alts: readonly Int32Array[];
  private readonly classes: _Program['classes'];
  private readonly repMax: Int32Array;
  private readonly repBody: Int32Array;
  private readonly root: number;
  private readonly repMin: Int32Array;
  private readonly repNullable: Uint8Array;
  private readonly fAscii: Uint32Array;
  private readonly fWide: Uint8Array;
  private readonly fNullable: Uint8Array;
  private readonly nPc: number;
  private markGen = 0;
  private stepGen = 0;
  /** The expansion's work list, reused across expansions. */
  private readonly todo: Stack[] = [];

  constructor(p: _Program, first: _FirstSets) {
    this.kind = p.kind;
    this.arg = p.arg;
    this.next = p.next;
    this.alts = p.alts;
    this.classes = p.classes;
    this.repMax = p.repMax;
    this.repBody = p.repBody;
    this.root = p.root;
    this.repMin = first.repMin;
    this.repNullable = first.repNullable;
    this.fAscii = first.ascii;
    this.fWide = first.wide;
    this.fNullable = first.nullable;
    this.nPc = p.kind.length;
  }

  /** The initial set: root's alternatives expanded from the empty stack, for lookahead `la0`. */
  initialStacks(la0: number): Stack[] {
    const active: Stack[] = [];
    const gen = ++this.stepGen;
    for (const f of this.alts[this.root] ?? []) {
      if (f >= 0 && !this.viable(f, la0)) continue;
      for (const s of f < 0
        ? this.expand(this.bottom, la0)
        : this.expand(this.push(this.bottom, f, 0), la0)) {
        if (s.seen !== gen) {
          s.seen = gen;
          active.push(s);
        }
      }
    }
    return active;
  }

  /**
   * Advances past one character that every stack in `active` matches: the distinct stacks of the
   * expansions of their successors, for lookahead `la` (−1: the end of the text).
   */
  step(active: readonly Stack[], la: number): Stack[] {
    const nextActive: Stack[] = [];
    const gen = ++this.stepGen;
    for (const s of active) {
      const closure = this.closureOf(this.successor(s), la);
      if (!closure) continue;
      for (const t of closure) {
        if (t.seen !== gen) {
          t.seen = gen;
          nextActive.push(t);
        }
      }
    }
    return nextActive;
  }

  /** The stack after the terminal on top of `s` matched (computed once per stack). */
  private successor(s: Stack): Stack {
    let succ = s.succ;
    if (!succ) {
      const nx = this.next[s.pc] ?? -1;
      succ = nx >= 0 ? this.push(s.below as Stack, nx, 0) : (s.below as Stack);
      s.succ = succ;
    }
    return succ;
  }

  /** The expansion of `succ` for lookahead `la`, computed once per stack and lookahead. */
  private closureOf(succ: Stack, la: number): Stack[] | undefined {
    let closure: Stack[] | undefined;
    if (succ.la1 === la) closure = succ.closure1;
    else if (succ.la1 === -2) {
      closure = this.expand(succ, la);
      succ.la1 = la;
      succ.closure1 = closure;
    } else {
      succ.more ??= new Map();
      closure = succ.more.get(la);
      if (!closure) {
        closure = this.expand(succ, la);
        succ.more.set(la, closure);
      }
    }
    return closure;
  }

  /** The interned stack `below` + (`pc`, `count`), made when it does not exist yet. */
  private push(below: Stack, pc: number, count: number): Stack {
    const key = count * this.nPc + pc;
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
  }

  /** The interned stack `below` + (`pc`, `count`), if it exists. */
  private find(below: Stack, pc: number, count: number): Stack | undefined {
    const key = count * this.nPc + pc;
    if (below.key1 === key) return below.kid1;
    if (below.key2 === key) return below.kid2;
    return below.kids?.get(key);
  }

  /**
   * Can the rest of a sequence from node `pc` (entered afresh) start with `la`, or match nothing?
   * `la` −1 is the end of the text. Pruning here only skips stacks that would die on `la`.
   */
  private viable(pc: number, la: number): boolean {
    if (this.fNullable[pc] === 1) return true;
    if (la < 0) return false;
    if (la < 128) return ((this.fAscii[pc * 4 + (la >>> 5)] ?? 0) & (1 << (la & 31))) !== 0;
    return this.fWide[pc] === 1;
  }

  /** Does the terminal at `pc` match code point `c` (−1: the end of the text, never matched)? */
  private termMatches(pc: number, c: number): boolean {
    if (c < 0) return false;
    const k = this.kind[pc];
    if (k === _K_CHAR) return this.arg[pc] === c;
    if (k === _K_CLASS) return _classHas(this.classes[this.arg[pc] ?? 0] as _Class, c);
    return k === _K_ANY;
  }

  /**
   * The stacks reachable from `start` by expanding calls and repetitions whose top is a terminal
   * matching `la` (or, for `la` −1, the empty stack). Each stack is expanded once per call.
   */
  private expand(start: Stack, la: number): Stack[] {
    const out: Stack[] = [];
    const gen = ++this.markGen;
    const todo = this.todo;
    todo.length = 0;
    todo.push(start);
    while (todo.length > 0) {
      const s = todo.pop() as Stack;
      if (s.mark === gen) continue;
      s.mark = gen;
      if (s === this.bottom) {
        if (la < 0) out.push(s);
        continue;
      }
      const k = this.kind[s.pc];
      if (k === _K_CALL) this.expandCall(s, la);
      else if (k === _K_REPEAT) this.expandRepeat(s, la, gen);
      else if (this.termMatches(s.pc, la)) out.push(s);
    }
    return out;
  }

  /** Queues the stacks a rule call on top of `s` leads to: each viable alternative of the rule. */
  private expandCall(s: Stack, la: number): void {
    const pc = s.pc;
    const below = s.below as Stack;
    const nx = this.next[pc] ?? -1;
    const cont = nx >= 0 ? this.push(below, nx, 0) : below;
    for (const f of this.alts[this.arg[pc] ?? 0] ?? []) {
      if (f < 0) this.todo.push(cont);
      else if (this.viable(f, la)) this.todo.push(this.push(cont, f, 0));
    }
  }

  /**
   * Queues the stacks a counted repetition on top of `s` leads to: leaving it (once the minimum is
   * reached) and running its item once more (below the maximum). `gen` is the current expansion.
   */
  private expandRepeat(s: Stack, la: number, gen: number): void {
    const pc = s.pc;
    const below = s.below as Stack;
    const r = this.arg[pc] ?? 0;
    const min = this.repMin[r] ?? 0;
    const max = this.repMax[r] ?? -1;
    const n = s.count;
    // an item that can be empty: the same frame with fewer iterations counted, already
    // expanded here, offers everything this one does (this stops chains of empty iterations)
    if (n > 0 && this.repNullable[r] === 1 && this.find(below, pc, n - 1)?.mark === gen) return;
    const nx = this.next[pc] ?? -1;
    if (n >= min && (nx < 0 || this.viable(nx, la)))
      this.todo.push(nx >= 0 ? this.push(below, nx, 0) : below);
    if (max < 0 || n < max) {
      const n1 = max < 0 ? Math.min(n + 1, min) : n + 1;
      const ret = n1 === max ? (nx >= 0 ? this.push(below, nx, 0) : below) : this.push(below, pc, n1);
      for (const f of this.alts[this.repBody[r] ?? 0] ?? []) {
        // an empty iteration only matters below the minimum: above it, this frame already
        // offers everything the frame with one more iteration counted does
        if (f < 0) {
          if (n < min) this.todo.push(ret);
        } else if (this.viable(f, la)) this.todo.push(this.push(ret, f, 0));
      }
    }
  }
}
