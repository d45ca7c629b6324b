/**
 * Intersection of regular string languages (a `pattern` and a `format`, two patterns, a pattern and
 * a length…), exactly, by automata. Each operand is a GBNF expression over the rules built so far;
 * when the rules it reaches are regular (no recursion) they are compiled into an NFA over code
 * points (Thompson's construction), the NFAs are run in lockstep by the subset construction of
 * their product, and the resulting DFA is written back as right-linear GBNF rules (one rule per
 * branching state; chains of states are written as sequences inside their predecessor's rule).
 *
 * The operands describe the characters between a JSON string's quotes as they are spelled (escapes
 * included), so the product accepts exactly the spellings every operand accepts: each accepted
 * text decodes to a string satisfying every operand (sound), and every string whose canonical
 * spelling each operand accepts is accepted (exact when the operands are).
 * @module
 */
import type { GrammarElement, GrammarRule, GrammarSequence } from '../grammar/ast.js';
import { parseGrammar } from '../grammar/parse.js';
import { printGrammar } from '../grammar/print.js';
import { _complement, _MAX_CP, _SURROGATES, _set, _subtract } from '../regex/charset.js';
import { _jsonCharForms } from '../regex/json-chars.js';
import { type _GrammarBuilder, _namesIn } from './grammar-builder.js';

/**
 * @internal How the product is written: `as-is` (the operands are grammars of the spelled text;
 * transitions are written as they are) or `json` (the operands are grammars of decoded strings;
 * each transition is written in every JSON spelling of its characters).
 */
export type _Spelling = 'as-is' | 'json';

/** @internal Limits of one intersection; over them the caller falls back (narrowing). */
export interface _IntersectLimits {
  /** NFA states per operand. */
  readonly nfaStates: number;
  /** DFA states of the product. */
  readonly dfaStates: number;
  /** Transitions examined while building the product (bounds the compile time). */
  readonly work: number;
}

/**
 * @internal One language of an intersection: a GBNF expression, or (`negated`) the complement of
 * its language — used for `not: {pattern}`; the expression must then describe its language
 * exactly.
 */
export interface _Operand {
  readonly expr: string;
  readonly negated?: boolean;
}

/** @internal Default limits of one intersection. */
export const _INTERSECT_LIMITS: _IntersectLimits = { nfaStates: 40_000, dfaStates: 2_000, work: 2_000_000 };

const cache = new WeakMap<_GrammarBuilder, Map<string, string | null | undefined>>();

/**
 * @internal The intersection of the languages of `exprs` as a GBNF expression (a rule name),
 * `null` when it is empty, or `undefined` when an operand is not regular or the automata exceed
 * the limits (the caller then narrows as before).
 */
export function _intersectRegular(
  g: _GrammarBuilder,
  operands: readonly _Operand[],
  label: string,
  spell: _Spelling,
  limits: _IntersectLimits = _INTERSECT_LIMITS,
): string | null | undefined {
  let byKey = cache.get(g);
  if (!byKey) {
    byKey = new Map();
    cache.set(g, byKey);
  }
  const key = `${spell}/${limits.dfaStates}/${limits.work}\u0000${operands.map((o) => `${o.negated ? '!' : ''}${o.expr}`).join('\u0000')}`;
  if (byKey.has(key)) return byKey.get(key);
  const result = intersect(g, operands, label, spell, limits);
  byKey.set(key, result);
  return result;
}

function intersect(
  g: _GrammarBuilder,
  operands: readonly _Operand[],
  label: string,
  spell: _Spelling,
  limits: _IntersectLimits,
): string | null | undefined {
  const nfas: Nfa[] = [];
  for (const { expr: e, negated } of operands) {
    const rules = grammarOf(g, e);
    if (rules === undefined) return undefined;
    const nfa = new NfaBuilder(rules, limits.nfaStates).build();
    if (nfa === undefined) return undefined;
    nfas.push(negated ? { ...nfa, negated: true } : nfa);
  }
  const dfa = product(nfas, limits.dfaStates, limits.work);
  if (dfa === undefined) return undefined;
  const reduced = reduce(dfa, spell);
  return reduced === null ? null : emit(g, reduced, label, spell);
}

// ---------------------------------------------------------------------------------------------
// GBNF rules → grammar AST

/** The rules reachable from `expr`, parsed, with `root ::= expr` first; `undefined` if unparsable. */
function grammarOf(g: _GrammarBuilder, expr: string): Map<string, readonly GrammarSequence[]> | undefined {
  const lines = [`root ::= ${expr}`];
  const seen = new Set<string>();
  const queue = _namesIn(expr);
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    const body = g.body(name);
    if (body === undefined) continue;
    seen.add(name);
    lines.push(`${name} ::= ${body}`);
    queue.push(..._namesIn(body));
  }
  try {
    const grammar = parseGrammar(`${lines.join('\n')}\n`);
    return new Map(grammar.rules.map((r) => [r.name, r.alternatives]));
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Thompson NFA over code points

interface Nfa {
  /** The complement of the language is meant (accepting = the accept state is not reached). */
  readonly negated?: boolean;
  readonly start: number;
  readonly accept: number;
  /** Per state: epsilon successors. */
  readonly eps: readonly (readonly number[])[];
  /** Per state: `[from, to, target]` transitions. */
  readonly edges: readonly (readonly (readonly [number, number, number])[])[];
}

class NfaTooLarge extends Error {}

class NfaBuilder {
  private readonly eps: number[][] = [];
  private readonly edges: [number, number, number][][] = [];
  private readonly inlining = new Set<string>();

  constructor(
    private readonly rules: Map<string, readonly GrammarSequence[]>,
    private readonly max: number,
  ) {}

  build(): Nfa | undefined {
    try {
      const [start, accept] = this.alternatives(this.rules.get('root') ?? []);
      return { start, accept, eps: this.eps, edges: this.edges };
    } catch (e) {
      if (e instanceof NfaTooLarge) return undefined;
      throw e;
    }
  }

  private state(): number {
    if (this.eps.length >= this.max) throw new NfaTooLarge();
    this.eps.push([]);
    this.edges.push([]);
    return this.eps.length - 1;
  }

  private alternatives(alts: readonly GrammarSequence[]): [number, number] {
    const s = this.state();
    const e = this.state();
    for (const seq of alts) {
      const [a, b] = this.sequence(seq);
      this.eps[s]!.push(a);
      this.eps[b]!.push(e);
    }
    return [s, e];
  }

  private sequence(seq: GrammarSequence): [number, number] {
    const s = this.state();
    let cur = s;
    for (const el of seq) {
      const [a, b] = this.element(el);
      this.eps[cur]!.push(a);
      cur = b;
    }
    return [s, cur];
  }

  private ranges(s: number, ranges: readonly (readonly [number, number])[]): [number, number] {
    const e = this.state();
    for (const [from, to] of ranges) if (from <= to) this.edges[s]!.push([from, to, e]);
    return [s, e];
  }

  private element(el: GrammarElement): [number, number] {
    switch (el.type) {
      case 'literal': {
        const s = this.state();
        let cur = s;
        for (const ch of el.value) {
          const cp = ch.codePointAt(0)!;
          cur = this.ranges(cur, [[cp, cp]])[1];
        }
        return [s, cur];
      }
      case 'class': {
        const set = _set(el.ranges.map((r) => [r.from, r.to] as const));
        return this.ranges(this.state(), el.negated ? _complement(set) : set);
      }
      case 'any':
        return this.ranges(this.state(), [[0, _MAX_CP]]);
      case 'token':
        return [this.state(), this.state()]; // never matches text
      case 'group':
        return this.alternatives(el.alternatives);
      case 'ref': {
        const body = this.rules.get(el.name);
        // recursion is not regular (as far as this construction goes): give up
        if (body === undefined || this.inlining.has(el.name)) throw new NfaTooLarge();
        this.inlining.add(el.name);
        try {
          return this.alternatives(body);
        } finally {
          this.inlining.delete(el.name);
        }
      }
      case 'repeat': {
        const s = this.state();
        let cur = s;
        for (let i = 0; i < el.min; i++) {
          const [a, b] = this.element(el.item);
          this.eps[cur]!.push(a);
          cur = b;
        }
        const end = this.state();
        if (el.max === null) {
          const [a, b] = this.element(el.item);
          this.eps[cur]!.push(a, end);
          this.eps[b]!.push(a, end);
        } else {
          this.eps[cur]!.push(end);
          for (let i = el.min; i < el.max; i++) {
            const [a, b] = this.element(el.item);
            this.eps[cur]!.push(a);
            this.eps[b]!.push(end);
            cur = b;
          }
        }
        return [s, end];
      }
    }
  }
}

function closure(nfa: Nfa, states: Iterable<number>): number[] {
  const seen = new Set<number>();
  const stack = [...states];
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    for (const t of nfa.eps[s]!) if (!seen.has(t)) stack.push(t);
  }
  // only states with transitions (or the accepting one) matter for the DFA
  return [...seen].filter((s) => nfa.edges[s]!.length > 0 || s === nfa.accept).sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// Product DFA (subset construction over all operands at once)

interface Dfa {
  readonly accepting: readonly boolean[];
  /** Per state: `[ranges, target]`, ranges sorted and disjoint. */
  readonly out: readonly (readonly [readonly (readonly [number, number])[], number])[][];
}

function product(nfas: readonly Nfa[], maxStates: number, maxWork: number): Dfa | undefined {
  let work = 0;
  const memo = nfas.map(() => new Map<string, number[]>());
  const keys = new Map<string, number>();
  const sets: number[][][] = [];
  const accepting: boolean[] = [];
  const out: [[number, number][], number][][] = [];
  const add = (parts: number[][]): number | undefined => {
    const key = parts.map((p) => p.join(',')).join('|');
    const known = keys.get(key);
    if (known !== undefined) return known;
    if (sets.length >= maxStates) return undefined;
    const id = sets.length;
    keys.set(key, id);
    sets.push(parts);
    accepting.push(parts.every((p, i) => p.includes(nfas[i]!.accept) !== (nfas[i]!.negated === true)));
    out.push([]);
    return id;
  };
  add(nfas.map((n) => closure(n, [n.start])));
  for (let id = 0; id < sets.length; id++) {
    const parts = sets[id]!;
    const bounds = new Set<number>();
    // a complemented operand accepts what its automaton cannot read: every character counts
    if (nfas.some((x) => x.negated)) {
      bounds.add(0);
      bounds.add(_MAX_CP + 1);
    }
    for (const [i, p] of parts.entries()) {
      for (const s of p) {
        for (const [from, to] of nfas[i]!.edges[s]!) {
          bounds.add(from);
          bounds.add(to + 1);
        }
      }
    }
    const cuts = [...bounds].sort((a, b) => a - b);
    const byTarget = new Map<number, [number, number][]>();
    for (let k = 0; k + 1 < cuts.length; k++) {
      const lo = cuts[k]!;
      const hi = cuts[k + 1]! - 1;
      const next: number[][] = [];
      for (const [i, p] of parts.entries()) {
        const targets: number[] = [];
        for (const s of p) {
          const edges = nfas[i]!.edges[s]!;
          work += edges.length;
          for (const [from, to, t] of edges) if (from <= lo && hi <= to) targets.push(t);
        }
        if (work > maxWork) return undefined;
        if (targets.length === 0 && !nfas[i]!.negated) break;
        const tk = targets.join(',');
        let c = memo[i]!.get(tk);
        if (c === undefined) {
          c = closure(nfas[i]!, targets);
          memo[i]!.set(tk, c);
        }
        next.push(c);
      }
      if (next.length < parts.length) continue;
      const t = add(next);
      if (t === undefined) return undefined;
      const rs = byTarget.get(t) ?? [];
      const last = rs[rs.length - 1];
      if (last && last[1] + 1 === lo) last[1] = hi;
      else rs.push([lo, hi]);
      byTarget.set(t, rs);
    }
    out[id] = [...byTarget].map(([t, rs]) => [rs, t]);
  }
  return { accepting, out };
}

// ---------------------------------------------------------------------------------------------
// DFA → right-linear GBNF

type Ranges = readonly (readonly [number, number])[];

/**
 * The live part of `dfa` (states from which an accepting state is reachable), without transitions
 * on surrogates for decoded automata, minimized (equivalent states merged: hash-consing in reverse
 * topological order when the automaton is acyclic — a bounded length makes it so — otherwise
 * Moore's partition refinement); `null` when the language is empty.
 */
function reduce(dfa: Dfa, spell: _Spelling): Dfa | null {
  const live = liveStates(dfa);
  if (live === null) return null;
  const usable = (rs: Ranges): Ranges => (spell === 'json' ? _subtract(rs, _SURROGATES) : rs);
  const out = new Map<number, [Ranges, number][]>();
  for (const s of live) {
    out.set(
      s,
      dfa.out[s]!.filter(([, t]) => live.has(t))
        .map(([rs, t]): [Ranges, number] => [usable(rs), t])
        .filter(([rs]) => rs.length > 0),
    );
  }
  // block of each state; signature = accepting + transitions grouped by target block
  const signature = (s: number, block: Map<number, number>): string => {
    const byBlock = new Map<number, [number, number][]>();
    for (const [rs, t] of out.get(s)!) {
      const b = block.get(t)!;
      byBlock.set(b, [...(byBlock.get(b) ?? []), ...rs.map(([x, y]): [number, number] => [x, y])]);
    }
    const parts = [...byBlock].map(([b, rs]) => `${JSON.stringify(_set(rs))}>${b}`).sort();
    return `${dfa.accepting[s] ? 1 : 0}|${parts.join(';')}`;
  };
  let block = new Map<number, number>();
  const order = topological(live, out);
  if (order !== undefined) {
    const ids = new Map<string, number>();
    for (const s of order.reverse()) {
      const sig = signature(s, block);
      let id = ids.get(sig);
      if (id === undefined) {
        id = ids.size;
        ids.set(sig, id);
      }
      block.set(s, id);
    }
  } else {
    for (const s of live) block.set(s, dfa.accepting[s] ? 1 : 0);
    let count = new Set(block.values()).size;
    let stable = false;
    for (let round = 0; round < 64 && !stable; round++) {
      const ids = new Map<string, number>();
      const next = new Map<number, number>();
      for (const s of live) {
        const sig = `${block.get(s)}#${signature(s, block)}`;
        let id = ids.get(sig);
        if (id === undefined) {
          id = ids.size;
          ids.set(sig, id);
        }
        next.set(s, id);
      }
      stable = ids.size === count;
      count = ids.size;
      block = next;
    }
    if (!stable) block = new Map([...live].map((s) => [s, s]));
  }
  // renumber blocks: the start state's block is 0
  const renum = new Map<number, number>([[block.get(0)!, 0]]);
  for (const s of [...live].sort((x, y) => x - y)) {
    const b = block.get(s)!;
    if (!renum.has(b)) renum.set(b, renum.size);
  }
  const m = renum.size;
  const accepting = new Array<boolean>(m).fill(false);
  const outs: [Ranges, number][][] = Array.from({ length: m }, () => []);
  const done = new Set<number>();
  for (const s of live) {
    const b = renum.get(block.get(s)!)!;
    if (done.has(b)) continue;
    done.add(b);
    accepting[b] = dfa.accepting[s]!;
    const byTarget = new Map<number, [number, number][]>();
    for (const [rs, t] of out.get(s)!) {
      const tb = renum.get(block.get(t)!)!;
      byTarget.set(tb, [...(byTarget.get(tb) ?? []), ...rs.map(([x, y]): [number, number] => [x, y])]);
    }
    outs[b] = [...byTarget].map(([t, rs]): [Ranges, number] => [_set(rs), t]);
  }
  return { accepting, out: outs };
}

/** States in topological order, or `undefined` when there is a cycle. */
function topological(states: Set<number>, out: Map<number, [Ranges, number][]>): number[] | undefined {
  const indeg = new Map<number, number>();
  for (const s of states) indeg.set(s, 0);
  for (const s of states) for (const [, t] of out.get(s)!) indeg.set(t, indeg.get(t)! + 1);
  const queue = [...states].filter((s) => indeg.get(s) === 0);
  const order: number[] = [];
  while (queue.length > 0) {
    const s = queue.pop()!;
    order.push(s);
    for (const [, t] of out.get(s)!) {
      const d = indeg.get(t)! - 1;
      indeg.set(t, d);
      if (d === 0) queue.push(t);
    }
  }
  return order.length === states.size ? order : undefined;
}

/** States from which an accepting state is reachable, or `null` when the start state is not one. */
function liveStates(dfa: Dfa): Set<number> | null {
  const n = dfa.accepting.length;
  const preds: number[][] = Array.from({ length: n }, () => []);
  for (let s = 0; s < n; s++) for (const [, t] of dfa.out[s]!) preds[t]!.push(s);
  const live = new Set<number>();
  const stack = [...Array(n).keys()].filter((s) => dfa.accepting[s]);
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (live.has(s)) continue;
    live.add(s);
    for (const p of preds[s]!) stack.push(p);
  }
  return live.has(0) ? live : null;
}

function emit(g: _GrammarBuilder, dfa: Dfa, label: string, spell: _Spelling): string | null {
  const n = dfa.accepting.length;
  const live = liveStates(dfa);
  if (live === null) return null;
  // decoded automata: transitions on surrogate code points never occur in well-formed text
  const usable = (rs: readonly (readonly [number, number])[]) =>
    spell === 'json' ? _subtract(rs, _SURROGATES) : rs;
  const outs = new Map<number, (readonly [readonly (readonly [number, number])[], number])[]>();
  const out = (s: number) => {
    let o = outs.get(s);
    if (o === undefined) {
      o = dfa.out[s]!.filter(([rs, t]) => live.has(t) && usable(rs).length > 0).map(
        ([rs, t]) => [usable(rs), t] as const,
      );
      outs.set(s, o);
    }
    return o;
  };
  const indegree = new Array<number>(n).fill(0);
  for (const s of live) for (const [, t] of out(s)) indegree[t]!++;
  // a state entered from one place only is written inside its predecessor's rule
  const own = (s: number) => s === 0 || indegree[s] !== 1;
  const prefix = g.freshPrefix(label);
  const names = new Map<number, string>();
  const ordered = [...live].filter(own).sort((x, y) => x - y);
  for (const [i, s] of ordered.entries()) names.set(s, i === 0 ? prefix : `${prefix}-q${i}`);
  const rules: GrammarRule[] = [{ name: 'root', alternatives: [[{ type: 'ref', name: prefix }]] }];
  const charRules = new Map<string, GrammarElement>();
  const cls = (rs: readonly (readonly [number, number])[]): GrammarElement => {
    if (spell === 'as-is') return classOf(rs);
    const key = JSON.stringify(rs);
    let el = charRules.get(key);
    if (el === undefined) {
      const forms = _jsonCharForms(rs, 'all');
      const only = forms[0];
      if (forms.length === 1 && only?.length === 1) el = only[0]!;
      else {
        const name = `${prefix}-c${charRules.size + 1}`;
        rules.push({ name, alternatives: forms });
        el = { type: 'ref', name };
      }
      charRules.set(key, el);
    }
    return el;
  };
  // an accepting state whose only way on is a run of one class through accepting states to an
  // end: `C{0,k}`
  const runs = new Map<number, { el: GrammarElement; k: number } | undefined>();
  const optionalRun = (t: number): { el: GrammarElement; k: number } | undefined => {
    if (runs.has(t)) return runs.get(t);
    const r = optionalRunOf(t);
    runs.set(t, r);
    return r;
  };
  const optionalRunOf = (t: number): { el: GrammarElement; k: number } | undefined => {
    const o = out(t);
    if (!dfa.accepting[t]) return undefined;
    if (o.length === 0) return { el: { type: 'literal', value: '' }, k: 0 };
    const [rs, u] = o[0]!;
    if (o.length !== 1 || own(u)) return undefined;
    const rest = optionalRun(u);
    const el = cls(rs);
    if (rest === undefined || (rest.k > 0 && JSON.stringify(rest.el) !== JSON.stringify(el)))
      return undefined;
    return { el, k: rest.k + 1 };
  };
  const alternatives = (s: number): GrammarSequence[] => {
    const alts: GrammarSequence[] = [];
    for (const [rs, t] of out(s)) {
      if (own(t)) {
        alts.push([cls(rs), { type: 'ref', name: names.get(t)! }]);
        continue;
      }
      const run = optionalRun(t);
      if (run !== undefined) {
        alts.push(run.k === 0 ? [cls(rs)] : [cls(rs), { type: 'repeat', item: run.el, min: 0, max: run.k }]);
        continue;
      }
      const inner = alternatives(t).map(compact);
      if (inner.length === 0) alts.push([cls(rs)]);
      else if (inner.length === 1 && !dfa.accepting[t]) alts.push([cls(rs), ...inner[0]!]);
      else {
        const group: GrammarElement = { type: 'group', alternatives: inner };
        alts.push([cls(rs), dfa.accepting[t] ? { type: 'repeat', item: group, min: 0, max: 1 } : group]);
      }
    }
    return alts;
  };
  for (const s of ordered) {
    const alts = alternatives(s).map(compact);
    if (dfa.accepting[s]) alts.push([]);
    rules.push({ name: names.get(s)!, alternatives: alts });
  }
  for (const line of printGrammar({ rules }).split('\n')) {
    const at = line.indexOf(' ::= ');
    if (at > 0 && line.slice(0, at) !== 'root') {
      const name = line.slice(0, at);
      g.reserveExact(name);
      g.define(name, line.slice(at + 5));
    }
  }
  return prefix;
}

function classOf(rs: readonly (readonly [number, number])[]): GrammarElement {
  return rs.length === 1 && rs[0]![0] === rs[0]![1]
    ? { type: 'literal', value: String.fromCodePoint(rs[0]![0]) }
    : { type: 'class', negated: false, ranges: rs.map(([from, to]) => ({ from, to })) };
}

/** A key for a class or a rule reference (the items runs are made of); `undefined` otherwise. */
function atomKey(el: GrammarElement): string | undefined {
  if (el.type === 'ref') return `r${el.name}`;
  if (el.type === 'class') return `c${el.negated}${el.ranges.map((r) => `${r.from}-${r.to}`).join(',')}`;
  return undefined;
}

/**
 * Adjacent one-character literals become one literal (`"a" "b"` → `"ab"`); runs of one item
 * become a count (`c c c{0,2}` → `c{2,4}`).
 */
function compact(seq: GrammarSequence): GrammarSequence {
  const out: GrammarElement[] = [];
  const unit = (el: GrammarElement): [GrammarElement, number, number] =>
    el.type === 'repeat' && el.max !== null ? [el.item, el.min, el.max] : [el, 1, 1];
  for (const el of seq) {
    const last = out[out.length - 1];
    if (last !== undefined) {
      const [a, amin, amax] = unit(last);
      const [b, bmin, bmax] = unit(el);
      const ka = atomKey(a);
      if (ka !== undefined && ka === atomKey(b) && amax + bmax <= 2000 && a.type !== 'literal') {
        const min = amin + bmin;
        const max = amax + bmax;
        out[out.length - 1] = min === 1 && max === 1 ? a : { type: 'repeat', item: a, min, max };
        continue;
      }
      if (el.type === 'literal' && last.type === 'literal') {
        out[out.length - 1] = { type: 'literal', value: last.value + el.value };
        continue;
      }
    }
    out.push(el);
  }
  return out;
}
