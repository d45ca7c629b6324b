/**
 * Verb lemmas for prose: descriptions say "Reads", "Lists", "Retrieves", "searching", "created".
 * Internal: maps an inflected word onto a word of the verb table, or `null`.
 * @module
 */
import { verbGroupOf } from './verbs.js';

function _known(word: string): string | null {
  return verbGroupOf(word) === undefined ? null : word;
}

/** The verb-table word an inflected lowercase word stands for, or `null`. */
export function _verbLemma(word: string): string | null {
  const w = word.toLowerCase();
  const direct = _known(w);
  if (direct !== null) return direct;
  const n = w.length;
  if (n < 4) return null;
  const candidates: string[] = [];
  if (w.endsWith('ies')) candidates.push(`${w.slice(0, -3)}y`);
  if (w.endsWith('es')) candidates.push(w.slice(0, -2));
  if (w.endsWith('s') && !w.endsWith('ss')) candidates.push(w.slice(0, -1));
  if (w.endsWith('ied')) candidates.push(`${w.slice(0, -3)}y`);
  if (w.endsWith('ed')) {
    candidates.push(w.slice(0, -2), w.slice(0, -1));
    if (w[n - 3] === w[n - 4]) candidates.push(w.slice(0, -3)); // stopped → stop
  }
  if (w.endsWith('ing')) {
    candidates.push(w.slice(0, -3), `${w.slice(0, -3)}e`);
    if (w[n - 4] === w[n - 5]) candidates.push(w.slice(0, -4)); // running → run
  }
  for (const c of candidates) {
    const hit = _known(c);
    if (hit !== null) return hit;
  }
  return null;
}
