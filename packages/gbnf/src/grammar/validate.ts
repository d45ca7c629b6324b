/**
 * Checks a {@link Grammar} (parsed or built by hand) the way llama.cpp would after parsing:
 * well-formed values, every referenced rule defined, a `root` rule, no left recursion.
 *
 * Left recursion, two checks:
 * 1. llama.cpp's own (`llama_grammar_detect_left_recursion`): a rule reaches itself through the
 *    leftmost items of its alternatives, skipping only rules that have an empty alternative
 *    (groups and repetitions count as the rules llama.cpp generates for them). llama.cpp refuses
 *    these grammars; so do we.
 * 2. What that check misses but still makes llama.cpp's matcher loop forever (its stack grows
 *    without bound while expanding): a left-recursive cycle, through rules that can derive the
 *    empty string in any way, in which some step leaves something to match after it. We refuse
 *    these too. A left-recursive cycle made only of tail calls (e.g. `root ::= ("a"?)*`) is fine
 *    for llama.cpp and for our matcher, and is accepted.
 * @module
 */
import type { Grammar, GrammarElement, GrammarSequence } from './ast.js';
import { isRuleName, MAX_REPETITION } from './ast.js';
import type { GrammarLocation } from './errors.js';
import { GbnfGrammarError } from './errors.js';
import { _findCycle } from './graph.js';
import { _growingCycle, _program } from './program.js';

/**
 * Throws {@link GbnfGrammarError} `GRAMMAR_INVALID` when `grammar` is not one llama.cpp would
 * accept. `locate` maps a rule name to where it was defined, for messages.
 */
const passed = new WeakSet<Grammar>();

export function _checkGrammar(
  grammar: Grammar,
  locate: (name: string) => GrammarLocation | undefined = () => undefined,
): void {
  if (passed.has(grammar)) return;
  const fail = (message: string, name?: string): never => {
    const location = name === undefined ? undefined : locate(name);
    throw new GbnfGrammarError('GRAMMAR_INVALID', message, location ? { location } : {});
  };
  if (!grammar || !Array.isArray(grammar.rules) || grammar.rules.length === 0) {
    fail('expected a grammar with at least one rule');
  }
  const names = new Set<string>();
  for (const rule of grammar.rules) {
    if (typeof rule.name !== 'string' || !isRuleName(rule.name)) {
      fail(`expected a rule name of letters, digits and "-", got ${JSON.stringify(rule.name)}`);
    }
    if (names.has(rule.name)) fail(`rule "${rule.name}" is defined twice`, rule.name);
    names.add(rule.name);
    if (!Array.isArray(rule.alternatives) || rule.alternatives.length === 0) {
      fail(`rule "${rule.name}" has no alternatives (expected at least one, possibly empty)`, rule.name);
    }
  }
  // references llama.cpp keeps must be defined; those `x{0}` drops need not be
  const live = new Set<string>();
  for (const rule of grammar.rules) _collectRefs(rule.alternatives, live);
  for (const rule of grammar.rules) {
    const where = `rule "${rule.name}"`;
    const checkSeqs = (seqs: readonly GrammarSequence[]): void => {
      for (const seq of seqs) for (const el of seq) checkElement(el);
    };
    const checkElement = (el: GrammarElement): void => {
      switch (el.type) {
        case 'literal':
          if (typeof el.value !== 'string' || !isScalarString(el.value)) {
            fail(
              `${where}: a literal must be a string of Unicode scalar values (no lone surrogates)`,
              rule.name,
            );
          }
          return;
        case 'class':
          if (!Array.isArray(el.ranges) || el.ranges.length === 0) {
            fail(`${where}: a character class needs at least one range`, rule.name);
          }
          for (const r of el.ranges) {
            if (!isU32(r.from) || !isU32(r.to)) {
              fail(
                `${where}: class range bounds must be integers in 0..0xFFFFFFFF, got ${r.from}-${r.to}`,
                rule.name,
              );
            }
          }
          return;
        case 'ref':
          if (typeof el.name !== 'string' || !isRuleName(el.name)) {
            fail(
              `${where}: expected a rule name of letters, digits and "-", got ${JSON.stringify(el.name)}`,
              rule.name,
            );
          }
          if (!names.has(el.name) && live.has(el.name))
            fail(`${where}: undefined rule "${el.name}"`, rule.name);
          return;
        case 'any':
          return;
        case 'token':
          if (!isU32(el.id))
            fail(`${where}: token id must be an integer in 0..0xFFFFFFFF, got ${el.id}`, rule.name);
          return;
        case 'group':
          if (!Array.isArray(el.alternatives) || el.alternatives.length === 0) {
            fail(`${where}: a group needs at least one alternative`, rule.name);
          }
          checkSeqs(el.alternatives);
          return;
        case 'repeat': {
          const { min, max } = el;
          if (!Number.isInteger(min) || min < 0 || min > MAX_REPETITION) {
            fail(
              `${where}: repetition minimum must be an integer in 0..${MAX_REPETITION}, got ${min}`,
              rule.name,
            );
          }
          if (max !== null && (!Number.isInteger(max) || max < min || max > MAX_REPETITION)) {
            fail(
              `${where}: repetition maximum must be null or an integer in ${min}..${MAX_REPETITION}, got ${max}`,
              rule.name,
            );
          }
          if (_producesNothing(el.item)) {
            fail(`${where}: cannot repeat an item that produces nothing (llama.cpp refuses it)`, rule.name);
          }
          checkElement(el.item);
          return;
        }
        default:
          fail(`${where}: unknown element ${JSON.stringify((el as { type?: unknown }).type)}`, rule.name);
      }
    };
    checkSeqs(rule.alternatives);
  }
  if (!names.has('root')) fail('the grammar has no "root" rule (expected the start rule to be named root)');
  const cycle = llamaLeftRecursion(grammar);
  if (cycle) {
    fail(
      `left recursion: ${cycle.join(' → ')} can reach itself without consuming input (llama.cpp refuses left-recursive grammars)`,
      cycle[0],
    );
  }
  const growing = _growingCycle(_program(grammar));
  if (growing) {
    fail(
      `left recursion: ${growing.join(' → ')} can reach itself without consuming input, through rules that may match the empty string (llama.cpp's matcher would loop forever)`,
      growing[0],
    );
  }
  // grammars are readonly data: one that passed need not be checked again (matcher, printer)
  passed.add(grammar);
}

/**
 * Adds to `into` every rule name that stays referenced in the rules llama.cpp builds from
 * `alternatives`. `x{0}` drops the elements of `x` from its sequence, but rules generated inside
 * `x` (groups, repetitions with optional copies) are still built, and so are their references.
 */
export function _collectRefs(alternatives: readonly GrammarSequence[], into: Set<string>): void {
  const visit = (el: GrammarElement, dropped: boolean): void => {
    if (el.type === 'ref') {
      if (!dropped) into.add(el.name);
    } else if (el.type === 'group') _collectRefs(el.alternatives, into);
    else if (el.type === 'repeat') {
      if (el.max === 0) visit(el.item, true);
      else if (el.max === null || el.max > el.min) visit(el.item, false);
      else visit(el.item, dropped);
    }
  };
  for (const seq of alternatives) for (const el of seq) visit(el, false);
}

/** True for the items llama.cpp compiles to nothing: `""` and `x{0}`. */
export function _producesNothing(el: GrammarElement): boolean {
  return (el.type === 'literal' && el.value === '') || (el.type === 'repeat' && el.max === 0);
}

function isU32(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n <= 0xffffffff;
}

function isScalarString(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

interface LlamaNode {
  readonly label: string;
  readonly edges: number[];
  directlyEmpty: boolean;
}

interface Walk {
  /** Nodes reached from the start of this item. */
  readonly edges: number[];
  /** Whether the walk goes on past this item (it is a ref to a rule with an empty alternative). */
  readonly passes: boolean;
}

/**
 * llama.cpp's left-recursion check on the rules it would generate. Returns the cycle (as readable
 * labels, starting with a user rule when there is one) or undefined.
 */
function llamaLeftRecursion(grammar: Grammar): string[] | undefined {
  const nodes: LlamaNode[] = [];
  const index = new Map<string, number>();
  for (const rule of grammar.rules) {
    index.set(rule.name, nodes.length);
    nodes.push({
      label: rule.name,
      edges: [],
      directlyEmpty: rule.alternatives.some((seq) => seq.every(_producesNothing)),
    });
  }
  const walkSeq = (seq: GrammarSequence, owner: string, into: number[]): void => {
    let going = true;
    for (const el of seq) {
      const w = walkElement(el, owner);
      if (going) {
        into.push(...w.edges);
        going = w.passes;
      }
    }
  };
  const walkElement = (el: GrammarElement, owner: string): Walk => {
    switch (el.type) {
      case 'literal':
        return { edges: [], passes: el.value === '' };
      case 'class':
      case 'any':
      case 'token':
        return { edges: [], passes: false };
      case 'ref': {
        const n = index.get(el.name);
        // an undefined name can only be a reference that `x{0}` dropped: it leads nowhere
        if (n === undefined) return { edges: [], passes: false };
        return { edges: [n], passes: nodes[n]?.directlyEmpty ?? false };
      }
      case 'group': {
        const id = nodes.length;
        const node: LlamaNode = {
          label: `(group in ${owner})`,
          edges: [],
          directlyEmpty: el.alternatives.some((seq) => seq.every(_producesNothing)),
        };
        nodes.push(node);
        for (const seq of el.alternatives) walkSeq(seq, owner, node.edges);
        return { edges: [id], passes: node.directlyEmpty };
      }
      case 'repeat': {
        const item = walkElement(el.item, owner);
        const generated = el.max === null ? 1 : el.max - el.min;
        let rep = -1;
        if (generated > 0) {
          rep = nodes.length;
          const node: LlamaNode = {
            label: `(repetition in ${owner})`,
            edges: [...item.edges],
            directlyEmpty: true,
          };
          nodes.push(node);
          if (item.passes && el.max === null) node.edges.push(rep);
        }
        if (el.min > 0) {
          const edges = [...item.edges];
          if (item.passes && rep >= 0) edges.push(rep);
          return { edges, passes: item.passes };
        }
        return rep >= 0 ? { edges: [rep], passes: true } : { edges: [], passes: true };
      }
    }
  };
  for (const rule of grammar.rules) {
    const own = nodes[index.get(rule.name) ?? 0];
    if (own) for (const seq of rule.alternatives) walkSeq(seq, rule.name, own.edges);
  }
  return _findCycle(nodes.length, (n) => nodes[n]?.edges ?? [])?.map((n) => nodes[n]?.label ?? '?');
}
