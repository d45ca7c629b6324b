// Retrieval metrics over `{corpus, queries: [{id, text, gold}]}` sets: Recall@1/5/10 (share of
// gold tools in the top k, averaged over queries) and nDCG@10 with binary relevance.

export function evaluate(search, queries) {
  const sums = { r1: 0, r5: 0, r10: 0, ndcg10: 0 };
  for (const q of queries) {
    const ranked = search(q.text, 10).map((h) => h.id);
    const gold = new Set(q.gold);
    const recall = (k) => ranked.slice(0, k).filter((id) => gold.has(id)).length / gold.size;
    sums.r1 += recall(1);
    sums.r5 += recall(5);
    sums.r10 += recall(10);
    let dcg = 0;
    ranked.forEach((id, i) => {
      if (gold.has(id)) dcg += 1 / Math.log2(i + 2);
    });
    let ideal = 0;
    for (let i = 0; i < Math.min(gold.size, 10); i++) ideal += 1 / Math.log2(i + 2);
    sums.ndcg10 += dcg / ideal;
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
