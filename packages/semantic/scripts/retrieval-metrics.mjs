// Retrieval metrics over `{corpus, queries: [{id, text, gold}]}` sets. `gold` is either a list of
// ids (binary relevance) or a list of `{id, grade}` (graded: 2 needed, 1 acceptable or helpful).
// Recall@k: share of the query's needed tools (grade 2; grade 1 when it has no grade 2; every id
// of a binary list) in the top k, averaged. nDCG@10: gain = grade (1 for a binary list), discount
// 1/log2(rank + 1), ideal = the gold sorted by grade.

/** Gold of a query as `[{id, grade}]`. */
export function gradedGold(gold) {
  return gold.map((g) => (typeof g === 'string' ? { id: g, grade: 1 } : { id: g.id, grade: g.grade }));
}

/** nDCG@k of a ranking (ids) against graded gold. */
export function ndcgAt(ranked, gold, k = 10) {
  const gain = new Map();
  for (const g of gold) gain.set(g.id, Math.max(gain.get(g.id) ?? 0, g.grade));
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    dcg += (gain.get(id) ?? 0) / Math.log2(i + 2);
  });
  const ideal = [...gain.values()].sort((a, b) => b - a).slice(0, k);
  let idcg = 0;
  ideal.forEach((g, i) => {
    idcg += g / Math.log2(i + 2);
  });
  return idcg > 0 ? dcg / idcg : 0;
}

/** Recall@k of a ranking against the needed tools of graded gold. */
export function recallAt(ranked, gold, k) {
  const top = Math.max(...gold.map((g) => g.grade));
  const needed = new Set(gold.filter((g) => g.grade === top).map((g) => g.id));
  return ranked.slice(0, k).filter((id) => needed.has(id)).length / needed.size;
}

export function evaluate(search, queries) {
  const sums = { r1: 0, r5: 0, r10: 0, ndcg10: 0 };
  for (const q of queries) {
    const ranked = search(q.text, 10).map((h) => h.id);
    const gold = gradedGold(q.gold);
    sums.r1 += recallAt(ranked, gold, 1);
    sums.r5 += recallAt(ranked, gold, 5);
    sums.r10 += recallAt(ranked, gold, 10);
    sums.ndcg10 += ndcgAt(ranked, gold, 10);
  }
  const n = queries.length || 1;
  const pct = (x) => Math.round((x / n) * 1000) / 10;
  return {
    queries: queries.length,
    r1: pct(sums.r1),
    r5: pct(sums.r5),
    r10: pct(sums.r10),
    ndcg10: pct(sums.ndcg10),
  };
}

/** Deterministic split of queries into two halves by a hash of the id (FNV-1a). */
export function halfOf(id) {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h & 1;
}
