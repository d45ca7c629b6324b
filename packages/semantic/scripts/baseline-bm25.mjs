// A plain BM25 baseline for evaluation and benchmarks (not part of the package API): name +
// description, the same identifier-aware stemmed tokenizer, equal field weights, no annotations,
// no parameters, no prefix matching, no boosts; standard BM25 (k1 = 1.2, b = 0.75, no BM25+ delta).
import MiniSearch from 'minisearch';
import { tokenizeForSearch } from '../dist/search.js';

export class PlainBm25 {
  #search = new MiniSearch({
    idField: 'id',
    fields: ['name', 'description'],
    storeFields: [],
    tokenize: (text) => tokenizeForSearch(text),
    processTerm: (term) => term,
    searchOptions: { bm25: { k: 1.2, b: 0.75, d: 0 } },
  });

  add(documents) {
    this.#search.addAll(documents.map((d) => ({ id: d.id, name: d.name, description: d.description ?? '' })));
  }

  search(query, { limit = 10 } = {}) {
    const hits = this.#search
      .search(query, { combineWith: 'OR' })
      .map((r) => ({ id: r.id, score: Math.round(r.score * 1e6) / 1e6 }));
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return hits.slice(0, limit);
  }
}
