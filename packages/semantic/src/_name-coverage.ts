/**
 * Name coverage (`ToolIndexOptions.nameCoverage`, and a feature of the learned ranker): how much
 * of a tool's name the query asks for — the idf-weighted share of the name's words (server words
 * excluded) that the query weighs.
 * @module
 */
import { type _Candidates, _rerankWindow } from './_candidates.js';
import type { _InvertedIndex } from './_inverted-index.js';

/**
 * Adds name coverage to the best `_RERANK_DEPTH` scores (or `limit`, if more): the name share
 * times `weight` and the query's best score. @internal
 */
export function _addNameCoverage(
  index: _InvertedIndex,
  state: _Candidates,
  weights: ReadonlyMap<string, number>,
  weight: number,
  limit: number,
): void {
  const { candidates, scores } = state;
  const { best, floor } = _rerankWindow(scores, limit);
  if (!(best > 0)) return;
  candidates.forEach((slot, i) => {
    if (scores[i] === Number.NEGATIVE_INFINITY || scores[i]! < floor) return;
    scores[i] = scores[i]! + weight * best * _nameShare(index, slot, weights);
  });
}

/**
 * The idf-weighted share of a tool's name terms the query weighs (a prefix or typo match counts at
 * its weight); 0 when the name has none. @internal
 */
export function _nameShare(
  index: _InvertedIndex,
  slot: number,
  weights: ReadonlyMap<string, number>,
): number {
  const n = index.entries.size;
  let covered = 0;
  let total = 0;
  for (const term of index.slots[slot]!.nameTerms) {
    const df = index.postings.get(term)?.slots.length ?? 0;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    total += idf;
    covered += idf * Math.min(1, weights.get(term) ?? 0);
  }
  return total > 0 ? covered / total : 0;
}
