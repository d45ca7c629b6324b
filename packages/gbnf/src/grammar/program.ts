/**
 * A grammar compiled for matching: a flat array of nodes (one per terminal code point, class,
 * rule call or repetition) linked into sequences, like llama.cpp's element arrays but with
 * repetitions kept as one counted node instead of `max` generated rules.
 * @module
 */
import type { Grammar, GrammarElement, GrammarSequence } from './ast.js';
import { _findCycle, _stronglyConnected } from './graph.js';

/** Node kinds. */
export const _K_CHAR = 0;
export const _K_CLASS = 1;
export const _K_ANY = 2;
export const _K_TOKEN = 3;
export const _K_CALL = 4;
export const _K_REPEAT = 5;

/** A compiled character class: an ASCII bitmap plus sorted ranges for the rest. */
export interface _Class {
  readonly negated: boolean;
  readonly ascii: Uint32Array;
  /** Flattened `[from, to, from, to, …]` of ranges reaching beyond ASCII. */
  readonly wide: Int32Array | Float64Array;
}

/** Compiled grammar. `next[pc]` is the following node of the same sequence, or −1. */
export interface _Program {
  readonly kind: Uint8Array;
  readonly arg: Int32Array;
  readonly next: Int32Array;
  /** Per rule: the first node of each alternative, −1 for an empty one. */
  readonly alts: readonly Int32Array[];
  /** Per rule: a readable label (user rules by name). */
  readonly labels: readonly string[];
  readonly classes: readonly _Class[];
  readonly repMin: Int32Array;
  /** −1 for unbounded. */
  readonly repMax: Int32Array;
  readonly repBody: Int32Array;
  readonly root: number;
  /** Per node: the rule whose alternatives contain it. */
  readonly owner: Int32Array;
}

const cache = new WeakMap<Grammar, _Program>();

/** Compiles (and caches per grammar object) a checked grammar. */
export function _program(grammar: Grammar): _Program {
  let p = cache.get(grammar);
  if (!p) {
    p = compile(grammar);
    cache.set(grammar, p);
  }
  return p;
}

function compile(grammar: Grammar): _Program {
  const kind: number[] = [];
  const arg: number[] = [];
  const next: number[] = [];
  const owner: number[] = [];
  const alts: Int32Array[] = [];
  const labels: string[] = [];
  const classes: _Class[] = [];
  const repMin: number[] = [];
  const repMax: number[] = [];
  const repBody: number[] = [];
  const ruleIndex = new Map<string, number>();
  for (const rule of grammar.rules) {
    ruleIndex.set(rule.name, alts.length);
    alts.push(new Int32Array(0));
    labels.push(rule.name);
  }
  const emit = (k: number, a: number, rule: number): number => {
    kind.push(k);
    arg.push(a);
    next.push(-1);
    owner.push(rule);
    return kind.length - 1;
  };
  const compileRule = (seqs: readonly GrammarSequence[], rule: number): void => {
    const firsts = new Int32Array(seqs.length);
    seqs.forEach((seq, i) => {
      firsts[i] = compileSeq(seq, rule);
    });
    alts[rule] = firsts;
  };
  const anonRule = (seqs: readonly GrammarSequence[], label: string): number => {
    const r = alts.length;
    alts.push(new Int32Array(0));
    labels.push(label);
    compileRule(seqs, r);
    return r;
  };
  const compileSeq = (seq: GrammarSequence, rule: number): number => {
    const pcs: number[] = [];
    for (const el of seq) compileElement(el, rule, pcs);
    for (let i = 0; i + 1 < pcs.length; i++) next[pcs[i] ?? 0] = pcs[i + 1] ?? -1;
    return pcs[0] ?? -1;
  };
  const compileElement = (el: GrammarElement, rule: number, pcs: number[]): void => {
    const label = labels[rule] ?? '?';
    switch (el.type) {
      case 'literal':
        for (const ch of el.value) pcs.push(emit(_K_CHAR, ch.codePointAt(0) ?? 0, rule));
        return;
      case 'class':
        classes.push(compileClass(el.negated, el.ranges));
        pcs.push(emit(_K_CLASS, classes.length - 1, rule));
        return;
      case 'any':
        pcs.push(emit(_K_ANY, 0, rule));
        return;
      case 'token':
        pcs.push(emit(_K_TOKEN, el.id | 0, rule));
        return;
      case 'ref':
        pcs.push(emit(_K_CALL, ruleIndex.get(el.name) ?? 0, rule));
        return;
      case 'group': {
        const r = anonRule(el.alternatives, label.startsWith('(') ? label : `(group in ${label})`);
        pcs.push(emit(_K_CALL, r, rule));
        return;
      }
      case 'repeat': {
        if (el.max === 0) return;
        const body =
          el.item.type === 'group'
            ? anonRule(el.item.alternatives, `(repetition in ${label})`)
            : anonRule([[el.item]], `(repetition in ${label})`);
        repMin.push(el.min);
        repMax.push(el.max === null ? -1 : el.max);
        repBody.push(body);
        pcs.push(emit(_K_REPEAT, repMin.length - 1, rule));
        return;
      }
    }
  };
  for (const rule of grammar.rules) compileRule(rule.alternatives, ruleIndex.get(rule.name) ?? 0);
  return {
    kind: Uint8Array.from(kind),
    arg: Int32Array.from(arg),
    next: Int32Array.from(next),
    alts,
    labels,
    classes,
    repMin: Int32Array.from(repMin),
    repMax: Int32Array.from(repMax),
    repBody: Int32Array.from(repBody),
    root: ruleIndex.get('root') ?? 0,
    owner: Int32Array.from(owner),
  };
}

function compileClass(negated: boolean, ranges: readonly { from: number; to: number }[]): _Class {
  const ascii = new Uint32Array(4);
  const wide: number[] = [];
  for (const { from, to } of ranges) {
    for (let c = from; c <= Math.min(to, 127); c++) {
      const w = ascii[c >>> 5] ?? 0;
      ascii[c >>> 5] = w | (1 << (c & 31));
    }
    if (to > 127 && from <= to) wide.push(Math.max(from, 128), to);
  }
  return { negated, ascii, wide: Float64Array.from(wide) };
}

/** True when code point `c` is in the class (taking negation into account). */
export function _classHas(cls: _Class, c: number): boolean {
  let found: boolean;
  if (c < 128) found = ((cls.ascii[c >>> 5] ?? 0) & (1 << (c & 31))) !== 0;
  else {
    found = false;
    const w = cls.wide;
    for (let i = 0; i < w.length; i += 2) {
      if ((w[i] ?? 0) <= c && c <= (w[i + 1] ?? 0)) {
        found = true;
        break;
      }
    }
  }
  return found !== cls.negated;
}

/**
 * Can node `pc` by itself match the empty string, given which rules can (`ruleNullable`)? Only a
 * call or a repetition can; a terminal always consumes a character.
 */
function mayBeEmpty(p: _Program, ruleNullable: Uint8Array, pc: number): boolean {
  const k = p.kind[pc];
  if (k === _K_CALL) return ruleNullable[p.arg[pc] ?? 0] === 1;
  if (k === _K_REPEAT) {
    const r = p.arg[pc] ?? 0;
    return (p.repMin[r] ?? 0) === 0 || ruleNullable[p.repBody[r] ?? 0] === 1;
  }
  return false;
}

/** Per rule: can it match the empty string? (fixpoint) */
export function _nullableRules(p: _Program): Uint8Array {
  const nullable = new Uint8Array(p.alts.length);
  let changed = true;
  while (changed) {
    changed = false;
    for (let r = 0; r < p.alts.length; r++) {
      if (nullable[r]) continue;
      for (const first of p.alts[r] ?? []) {
        let pc = first;
        while (pc >= 0 && mayBeEmpty(p, nullable, pc)) pc = p.next[pc] ?? -1;
        if (pc < 0) {
          nullable[r] = 1;
          changed = true;
          break;
        }
      }
    }
  }
  return nullable;
}

/**
 * A left-recursive cycle along which the matcher's stack would grow (see validate.ts), as rule
 * labels; undefined when there is none. Nodes of the graph are calls and repetitions; an edge goes
 * from a call to each call reachable at the left of its target's alternatives, skipping nullable
 * items; it grows the stack when the call has a continuation (or is a repetition that may run again).
 */
export function _growingCycle(p: _Program): string[] | undefined {
  const n = p.kind.length;
  const nullable = _nullableRules(p);
  const grows = (pc: number): boolean => {
    if ((p.next[pc] ?? -1) >= 0) return true;
    return p.kind[pc] === _K_REPEAT && (p.repMax[p.arg[pc] ?? 0] ?? 0) !== 1;
  };
  const none: number[] = [];
  const edges: number[][] = new Array<number[]>(n).fill(none);
  for (let pc = 0; pc < n; pc++) {
    const k = p.kind[pc];
    if (k !== _K_CALL && k !== _K_REPEAT) continue;
    const target = k === _K_CALL ? (p.arg[pc] ?? 0) : (p.repBody[p.arg[pc] ?? 0] ?? 0);
    const out: number[] = [];
    edges[pc] = out;
    for (const first of p.alts[target] ?? []) {
      let q = first;
      while (q >= 0) {
        const kq = p.kind[q];
        if (kq !== _K_CALL && kq !== _K_REPEAT) break;
        out.push(q);
        if (!mayBeEmpty(p, nullable, q)) break;
        q = p.next[q] ?? -1;
      }
    }
  }
  // Only growing edges matter inside a cycle: find strongly connected components (Tarjan,
  // iterative) and look for a growing edge inside one.
  const sccOf = _stronglyConnected(n, edges);
  for (let pc = 0; pc < n; pc++) {
    if (!grows(pc)) continue;
    for (const q of edges[pc] ?? []) {
      if (sccOf[q] === sccOf[pc]) {
        // a cycle through pc → q: report it
        const inScc = (x: number) => sccOf[x] === sccOf[pc];
        const path = _findCycle(n, (x) => (inScc(x) ? (edges[x] ?? []).filter(inScc) : []));
        const labels = (path ?? [pc, q, pc]).map((x) => p.labels[p.owner[x] ?? 0] ?? '?');
        return labels.filter((l, i) => i === 0 || l !== labels[i - 1]);
      }
    }
  }
  return undefined;
}

/**
 * FIRST sets for pruning: for every node, the characters that can start a match of the rest of
 * its sequence from that node (ASCII exactly as a 128-bit map, anything above ASCII as one
 * conservative flag), and whether that rest can match the empty string.
 */
export interface _FirstSets {
  /** Four 32-bit words per node. */
  readonly ascii: Uint32Array;
  /** 1 when some character above U+007F may start it. */
  readonly wide: Uint8Array;
  /** 1 when the rest of the sequence from this node can match the empty string. */
  readonly nullable: Uint8Array;
  /**
   * Per repetition, the minimum the matcher enforces: 0 when the repeated item can match the empty
   * string (empty iterations can make up any minimum, so `x{m,n}` = `x{0,n}` then).
   */
  readonly repMin: Int32Array;
  /** Per repetition, 1 when the repeated item can match the empty string. */
  readonly repNullable: Uint8Array;
}

const firstCache = new WeakMap<_Program, _FirstSets>();

/** Computes (once per program) the FIRST sets of every node's sequence suffix. */
export function _firstSets(p: _Program): _FirstSets {
  const cached = firstCache.get(p);
  if (cached) return cached;
  const ruleNullable = _nullableRules(p);
  const rules = ruleFirstSets(p, ruleNullable);
  const { ascii, wide, nullable } = suffixFirstSets(p, rules);
  const repMin = p.repMin.map((min, r) => (ruleNullable[p.repBody[r] ?? 0] === 1 ? 0 : min));
  const repNullable = Uint8Array.from(p.repBody, (b) => ruleNullable[b] ?? 0);
  const sets = { ascii, wide, nullable, repMin, repNullable };
  firstCache.set(p, sets);
  return sets;
}

/** The FIRST sets of whole rules, and what computing node FIRST sets from them needs. */
interface RuleFirstSets {
  readonly ruleNullable: Uint8Array;
  /** Four 32-bit words per rule. */
  readonly ruleAscii: Uint32Array;
  readonly ruleWide: Uint8Array;
}

/** The rule a call or repetition node enters (a repetition: its body), or −1 for a terminal. */
function enteredRule(p: _Program, pc: number): number {
  const k = p.kind[pc];
  if (k === _K_CALL) return p.arg[pc] ?? 0;
  if (k === _K_REPEAT) return p.repBody[p.arg[pc] ?? 0] ?? 0;
  return -1;
}

/**
 * ORs the FIRST set of node `pc` itself (not of what follows it) into the four words of `a` at
 * `off`; returns the new wide flag (`w`, or 1 when a character above ASCII may start the node).
 */
function orNodeFirst(
  p: _Program,
  rules: RuleFirstSets,
  pc: number,
  a: Uint32Array,
  off: number,
  w: number,
): number {
  const k = p.kind[pc];
  if (k === _K_CHAR) {
    const c = p.arg[pc] ?? 0;
    if (c < 128) a[off + (c >>> 5)] = (a[off + (c >>> 5)] ?? 0) | (1 << (c & 31));
    else return 1;
    return w;
  }
  if (k === _K_CLASS) {
    const cls = p.classes[p.arg[pc] ?? 0] as _Class;
    for (let i = 0; i < 4; i++) {
      const bits = cls.negated ? ~(cls.ascii[i] ?? 0) : (cls.ascii[i] ?? 0);
      a[off + i] = (a[off + i] ?? 0) | bits;
    }
    return cls.negated || cls.wide.length > 0 ? 1 : w;
  }
  if (k === _K_ANY) {
    for (let i = 0; i < 4; i++) a[off + i] = 0xffffffff;
    return 1;
  }
  if (k === _K_TOKEN) return w;
  const r = enteredRule(p, pc);
  for (let i = 0; i < 4; i++) a[off + i] = (a[off + i] ?? 0) | (rules.ruleAscii[r * 4 + i] ?? 0);
  return rules.ruleWide[r] === 1 ? 1 : w;
}

/**
 * Rule FIRST sets: a worklist over "rule r starts with a call of rule t" dependencies, recomputing
 * a rule whenever a rule it starts with grew, until nothing changes.
 */
function ruleFirstSets(p: _Program, ruleNullable: Uint8Array): RuleFirstSets {
  const nRules = p.alts.length;
  const rules: RuleFirstSets = {
    ruleNullable,
    ruleAscii: new Uint32Array(nRules * 4),
    ruleWide: new Uint8Array(nRules),
  };
  const dependents = ruleDependents(p, ruleNullable);
  const queued = new Uint8Array(nRules).fill(1);
  const work = Array.from({ length: nRules }, (_, i) => nRules - 1 - i);
  const tmp = new Uint32Array(4);
  while (work.length > 0) {
    const r = work.pop() as number;
    queued[r] = 0;
    if (!recomputeRuleFirst(p, rules, r, tmp)) continue;
    for (const d of dependents[r] ?? []) {
      if (!queued[d]) {
        queued[d] = 1;
        work.push(d);
      }
    }
  }
  return rules;
}

/** Per rule t, the rules that can start with a call of t (and so must be recomputed when t grows). */
function ruleDependents(p: _Program, ruleNullable: Uint8Array): number[][] {
  const dependents: number[][] = Array.from({ length: p.alts.length }, () => []);
  for (let r = 0; r < p.alts.length; r++) {
    for (const first of p.alts[r] ?? []) {
      for (let pc = first; pc >= 0; pc = p.next[pc] ?? -1) {
        const t = enteredRule(p, pc);
        if (t >= 0) dependents[t]?.push(r);
        if (!mayBeEmpty(p, ruleNullable, pc)) break;
      }
    }
  }
  return dependents;
}

/** Recomputes rule r's FIRST set (`tmp`: four scratch words) into `rules`; true when it grew. */
function recomputeRuleFirst(p: _Program, rules: RuleFirstSets, r: number, tmp: Uint32Array): boolean {
  const { ruleAscii, ruleWide } = rules;
  tmp.fill(0);
  let w = 0;
  for (const first of p.alts[r] ?? []) {
    for (let pc = first; pc >= 0; pc = p.next[pc] ?? -1) {
      w = orNodeFirst(p, rules, pc, tmp, 0, w);
      if (!mayBeEmpty(p, rules.ruleNullable, pc)) break;
    }
  }
  let changed = w !== ruleWide[r];
  for (let i = 0; i < 4; i++) {
    const v = (tmp[i] ?? 0) | (ruleAscii[r * 4 + i] ?? 0);
    if (v !== ruleAscii[r * 4 + i]) {
      ruleAscii[r * 4 + i] = v;
      changed = true;
    }
  }
  ruleWide[r] = w | (ruleWide[r] ?? 0);
  return changed;
}

/** Per-node suffix sets (the `_FirstSets` fields per node), walking each sequence backwards. */
function suffixFirstSets(p: _Program, rules: RuleFirstSets): Pick<_FirstSets, 'ascii' | 'wide' | 'nullable'> {
  const nPc = p.kind.length;
  const sets = { ascii: new Uint32Array(nPc * 4), wide: new Uint8Array(nPc), nullable: new Uint8Array(nPc) };
  const isStart = new Uint8Array(nPc);
  for (const firsts of p.alts) for (const f of firsts) if (f >= 0) isStart[f] = 1;
  const seq: number[] = [];
  for (let start = 0; start < nPc; start++) {
    if (!isStart[start]) continue;
    seq.length = 0;
    for (let pc = start; pc >= 0; pc = p.next[pc] ?? -1) seq.push(pc);
    sequenceSuffixSets(p, rules, seq, sets);
  }
  return sets;
}

/** Fills the suffix sets of the nodes of one sequence, from its last node to its first. */
function sequenceSuffixSets(
  p: _Program,
  rules: RuleFirstSets,
  seq: readonly number[],
  sets: Pick<_FirstSets, 'ascii' | 'wide' | 'nullable'>,
): void {
  const { ascii, wide, nullable } = sets;
  let restNullable = 1;
  let restWide = 0;
  let prev = -1;
  for (let i = seq.length - 1; i >= 0; i--) {
    const pc = seq[i] as number;
    const off = pc * 4;
    let w = orNodeFirst(p, rules, pc, ascii, off, 0);
    if (mayBeEmpty(p, rules.ruleNullable, pc)) {
      if (prev >= 0) {
        for (let j = 0; j < 4; j++) ascii[off + j] = (ascii[off + j] ?? 0) | (ascii[prev * 4 + j] ?? 0);
      }
      w |= restWide;
    } else restNullable = 0;
    restWide = w;
    wide[pc] = w;
    nullable[pc] = restNullable;
    prev = pc;
  }
}
