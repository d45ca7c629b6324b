/**
 * Random small grammars for property tests (grammar-*.test.ts, llama-*.test.ts): a seeded
 * generator, a sampler of texts the grammar derives, random texts over the same alphabet, and a
 * JavaScript RegExp for the language of a non-recursive grammar (an independent oracle).
 */
import type { CharRange, Grammar, GrammarElement, GrammarSequence } from '../../src/index.js';

/** A deterministic PRNG (mulberry32) returning floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The characters random grammars and texts are made of (tricky ones included). */
export const ALPHABET = ['a', 'b', 'c', 'a', 'b', 'é', '😀', '\n', '"', '\\', ']', '-', '^', '日', '\t'];

const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
const int = (rand: () => number, lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
const cp = (s: string): number => s.codePointAt(0) ?? 0;

export interface RandomGrammarOptions {
  /** Allow references back to earlier rules (after a terminal, so never left-recursive). */
  readonly recursive?: boolean;
  /** Allow <[id]> tokens. */
  readonly tokens?: boolean;
}

/** A random grammar of 1–4 rules named root, r1, r2, r3. */
export function randomGrammar(rand: () => number, options: RandomGrammarOptions = {}): Grammar {
  const n = int(rand, 1, 4);
  const names = ['root', 'r1', 'r2', 'r3'].slice(0, n);
  const rules = names.map((name, i) => {
    const element = (depth: number, guarded: boolean): GrammarElement => {
      const roll = rand();
      const laterRefs = names.slice(i + 1);
      if (roll < 0.3) {
        let value = pick(rand, ALPHABET);
        for (let k = int(rand, 0, 2); k > 0; k--) value += pick(rand, ALPHABET);
        return { type: 'literal', value };
      }
      if (roll < 0.45) {
        const ranges: CharRange[] = [];
        for (let k = int(rand, 1, 3); k > 0; k--) {
          const a = cp(pick(rand, ALPHABET));
          const b = rand() < 0.5 ? a : cp(pick(rand, ALPHABET));
          ranges.push(rand() < 0.85 ? { from: Math.min(a, b), to: Math.max(a, b) } : { from: a, to: b });
        }
        return { type: 'class', negated: rand() < 0.3, ranges };
      }
      if (roll < 0.5) return { type: 'any' };
      if (roll < 0.6) {
        const targets = options.recursive && guarded ? names : laterRefs;
        if (targets.length > 0) return { type: 'ref', name: pick(rand, targets) };
        return { type: 'literal', value: pick(rand, ALPHABET) };
      }
      if (options.tokens && roll < 0.62) return { type: 'token', id: int(rand, 0, 9), negated: rand() < 0.5 };
      if (roll < 0.8 && depth > 0) {
        return { type: 'group', alternatives: alternatives(depth - 1, guarded, 3) };
      }
      if (depth > 0) {
        let item = element(depth - 1, guarded);
        if (item.type === 'literal' && item.value === '') item = { type: 'literal', value: 'a' };
        if (item.type === 'repeat' && item.max === 0) item = { type: 'any' };
        const solid =
          item.type === 'literal' || item.type === 'class' || item.type === 'any' || item.type === 'token';
        // an unbounded repetition of something that may match "" is left recursion: keep those
        // bounded; repeating a recursive rule (`root{2,4}` with root nullable) makes llama.cpp's
        // matcher exponential, so recursive references are at most optional
        const recursiveItem = options.recursive === true && hasRef(item);
        const [min, max] = pick(
          rand,
          recursiveItem
            ? [
                [0, 1],
                [0, 0],
              ]
            : solid
              ? [
                  [0, null],
                  [1, null],
                  [0, 1],
                  [int(rand, 0, 3), null],
                  [int(rand, 0, 2), int(rand, 2, 4)],
                  [3, 3],
                  [0, 0],
                ]
              : [
                  [0, 1],
                  [int(rand, 0, 2), int(rand, 2, 4)],
                  [2, 2],
                  [0, 0],
                ],
        );
        return { type: 'repeat', item, min, max };
      }
      return { type: 'literal', value: pick(rand, ALPHABET) };
    };
    const sequence = (depth: number, guarded: boolean): GrammarSequence => {
      const seq: GrammarElement[] = [];
      let g = guarded;
      for (let k = int(rand, 0, 3); k > 0; k--) {
        const el = element(depth, g);
        seq.push(el);
        if ((el.type === 'literal' && el.value !== '') || el.type === 'class' || el.type === 'any') g = true;
      }
      return seq;
    };
    const alternatives = (depth: number, guarded: boolean, most: number): GrammarSequence[] =>
      Array.from({ length: int(rand, 1, most) }, () => sequence(depth, guarded));
    return { name, alternatives: alternatives(2, false, 3) };
  });
  return { rules };
}

function hasRef(el: GrammarElement): boolean {
  if (el.type === 'ref') return true;
  if (el.type === 'group') return el.alternatives.some((seq) => seq.some(hasRef));
  return el.type === 'repeat' && hasRef(el.item);
}

/** A text derived from `grammar`'s root (random choices), or undefined when sampling got stuck. */
export function sampleText(grammar: Grammar, rand: () => number): string | undefined {
  const byName = new Map(grammar.rules.map((r) => [r.name, r.alternatives]));
  let budget = 400;
  const seq = (s: GrammarSequence, depth: number): string | undefined => {
    let out = '';
    for (const el of s) {
      const t = element(el, depth);
      if (t === undefined) return undefined;
      out += t;
    }
    return out;
  };
  const alts = (a: readonly GrammarSequence[], depth: number): string | undefined => {
    if (--budget < 0 || depth > 12) return undefined;
    return seq(pick(rand, a), depth + 1);
  };
  const element = (el: GrammarElement, depth: number): string | undefined => {
    switch (el.type) {
      case 'literal':
        return el.value;
      case 'any':
        return pick(rand, ALPHABET);
      case 'token':
        return undefined;
      case 'class': {
        for (let tries = 0; tries < 20; tries++) {
          const c = rand() < 0.5 || el.negated ? cp(pick(rand, ALPHABET)) : rangeChar(pick(rand, el.ranges));
          if (c === undefined) continue;
          const inside = el.ranges.some((r) => r.from <= c && c <= r.to);
          if (inside !== el.negated) return String.fromCodePoint(c);
        }
        return undefined;
      }
      case 'ref':
        return alts(byName.get(el.name) ?? [], depth);
      case 'group':
        return alts(el.alternatives, depth);
      case 'repeat': {
        const hi = el.max ?? el.min + 3;
        let out = '';
        for (let k = int(rand, el.min, hi); k > 0; k--) {
          const t = element(el.item, depth + 1);
          if (t === undefined) return undefined;
          out += t;
        }
        return out;
      }
    }
  };
  const rangeChar = (r: CharRange): number | undefined => {
    if (r.from > r.to) return undefined;
    const c = int(rand, r.from, Math.min(r.to, r.from + 50));
    return c >= 0xd800 && c <= 0xdfff ? undefined : c;
  };
  return alts(byName.get('root') ?? [], 0);
}

/** A random text over {@link ALPHABET} of up to `max` characters. */
export function randomText(rand: () => number, max = 6): string {
  let s = '';
  for (let k = int(rand, 0, max); k > 0; k--) s += pick(rand, ALPHABET);
  return s;
}

/** A `u`-flag RegExp matching exactly the language of a grammar without recursion. */
export function grammarToRegExp(grammar: Grammar): RegExp {
  const byName = new Map(grammar.rules.map((r) => [r.name, r.alternatives]));
  const esc = (c: number) => `\\u{${c.toString(16)}}`;
  const alts = (a: readonly GrammarSequence[]): string =>
    `(?:${a.map((s) => s.map(element).join('')).join('|')})`;
  const element = (el: GrammarElement): string => {
    switch (el.type) {
      case 'literal':
        return [...el.value].map((ch) => esc(cp(ch))).join('');
      case 'any':
        return '[^]';
      case 'token':
        return '(?!)';
      case 'class': {
        const body = el.ranges
          .filter((r) => r.from <= r.to)
          .map((r) => (r.from === r.to ? esc(r.from) : `${esc(r.from)}-${esc(r.to)}`))
          .join('');
        return `[${el.negated ? '^' : ''}${body}]`;
      }
      case 'ref':
        return alts(byName.get(el.name) ?? []);
      case 'group':
        return alts(el.alternatives);
      case 'repeat':
        return `(?:${element(el.item)}){${el.min},${el.max ?? ''}}`;
    }
  };
  return new RegExp(`^${alts(byName.get('root') ?? [])}$`, 'u');
}
