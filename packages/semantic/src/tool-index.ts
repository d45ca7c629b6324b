/**
 * Tool search (docs/design.md §7, search): a BM25F index over a tool catalog — name,
 * annotations, description, parameter names and descriptions, namespace, and the topics of the
 * concept lexicon — with the identifier-aware tokenizer, stop words and Porter stemming
 * (`stemmer`), small boosts for a matching verb class and data subject, live add/remove, and
 * deterministic ranking. The term dictionary is MiniSearch's radix tree (`SearchableMap`, exact
 * and prefix lookup); scoring is true BM25F (field frequencies combined before one saturation,
 * Robertson, Zaragoza and Taylor 2004), which MiniSearch's own per-field BM25 sum is not.
 *
 * This file holds the index's API and the order of the ranking steps; each step lives in a file
 * of its own: the document model (tool-document.ts), the options (tool-index-options.ts), the
 * postings (_inverted-index.ts), the query's terms (_query-terms.ts), BM25F candidates
 * (_candidates.ts), the vector blend (_vector-blend.ts), server affinity (_server-affinity.ts),
 * name coverage (_name-coverage.ts) and the learned ranker's features (_ranker-features.ts).
 * @module
 */
import { _candidates, _RERANK_DEPTH } from './_candidates.js';
import { type _Entry, _InvertedIndex } from './_inverted-index.js';
import { _addNameCoverage } from './_name-coverage.js';
import { _queryTerms } from './_query-terms.js';
import { _rerank } from './_ranker-features.js';
import { _addServerAffinity, _NamespaceIndex } from './_server-affinity.js';
import { _blendVectors, type _QueryVectors } from './_vector-blend.js';
import { annotateTool, type SemanticAnnotations } from './annotate.js';
import { SemanticError } from './errors.js';
import { _cleanQuery, _fuseRankings, _splitClauses } from './query-plan.js';
import { tokenizeForSearch } from './search-tokenizer.js';
import { _toolEmbeddingText, _UnitEmbedder } from './text-embedder.js';
import { _analyzeDocument, type ToolDocument } from './tool-document.js';
import { type _IndexSettings, _resolveOptions, type ToolIndexOptions } from './tool-index-options.js';
import { textVector } from './word-vectors.js';

/** Options of {@link ToolIndex.search}. */
export interface SearchOptions {
  /** Most results returned (default 10). */
  readonly limit?: number;
  /** Keep only tools whose annotation domain is this (e.g. `filesystem`). */
  readonly domain?: string;
}

/** One search result. */
export interface SearchHit {
  /** The tool's id. */
  readonly id: string;
  /** Relevance (higher is better), rounded to 6 decimals. */
  readonly score: number;
  /** The tool's `use_when` sentence. */
  readonly use_when: string;
}

/** How deep each clause's ranking goes into the fusion (at least `limit`). */
const FUSION_DEPTH = 20;

function _byScoreThenId(a: SearchHit, b: SearchHit): number {
  return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * A live search index over tools. Pure and deterministic: the same documents and query give the
 * same ranking; equal scores are ordered by id.
 * @example
 * const index = new ToolIndex();
 * index.add([{ id: 'fs.read_file', name: 'read_file', description: 'Read a file', namespace: 'fs' }]);
 * index.search('open the contents of a file', { limit: 5 }); // [{ id: 'fs.read_file', score, use_when }]
 */
export class ToolIndex {
  readonly #settings: _IndexSettings;
  readonly #embedder: _UnitEmbedder | null;
  readonly #index = new _InvertedIndex();
  /** Namespace documents, for server affinity. */
  readonly #namespaces = new _NamespaceIndex();

  constructor(options: ToolIndexOptions = {}) {
    this.#settings = _resolveOptions(options);
    this.#embedder = this.#settings.embedder === null ? null : new _UnitEmbedder(this.#settings.embedder);
  }

  /** Number of tools in the index. */
  get size(): number {
    return this.#index.entries.size;
  }

  /** True when a tool with this id is indexed. */
  has(id: string): boolean {
    return this.#index.entries.has(id);
  }

  /**
   * A tool's annotations as the index sees them, or `undefined`: generated without siblings (so
   * `related_schemas` is empty — use `annotateTools` on a whole source for those), with the
   * document's own `semantic` fields on top.
   */
  annotations(id: string): SemanticAnnotations | undefined {
    const entry = this.#index.entries.get(id);
    if (entry === undefined) return undefined;
    const { doc } = entry;
    return { ...annotateTool(doc, [], doc.namespace ?? ''), ...(doc.semantic ?? {}) };
  }

  /** Ids of all indexed tools, sorted. */
  ids(): string[] {
    return [...this.#index.entries.keys()].sort();
  }

  /**
   * Adds tools. Throws {@link SemanticError} `DUPLICATE_ID` (and adds none of the batch) when an id
   * is already indexed or repeated; replace a tool by removing it first.
   */
  add(documents: readonly ToolDocument[]): void {
    this.#checkNewDocuments(documents);
    // Embeddings first, so a misbehaving embedder leaves the index unchanged.
    const embeddings = documents.map(
      (doc) => this.#embedder?.unitVector(_toolEmbeddingText(doc), `tool ${JSON.stringify(doc.id)}`) ?? null,
    );
    documents.forEach((doc, docIndex) => {
      this.#insert(doc, embeddings[docIndex]!);
    });
  }

  /** Throws unless every document has an id and a name, and no id is indexed or repeated. */
  #checkNewDocuments(documents: readonly ToolDocument[]): void {
    const seen = new Set<string>();
    for (const doc of documents) {
      if (typeof doc?.id !== 'string' || doc.id.length === 0 || typeof doc.name !== 'string') {
        throw new SemanticError(
          'INVALID_ARGUMENT',
          `expected a document with a non-empty string id and a string name, got ${JSON.stringify(doc)?.slice(0, 120)}`,
        );
      }
      if (this.#index.entries.has(doc.id) || seen.has(doc.id)) {
        throw new SemanticError(
          'DUPLICATE_ID',
          `tool id ${JSON.stringify(doc.id)} is already indexed; remove it first`,
        );
      }
      seen.add(doc.id);
    }
  }

  /** Indexes one checked document with its embedding: postings, entry and namespace document. */
  #insert(doc: ToolDocument, embedding: Float32Array | null): void {
    const analyzed = _analyzeDocument(doc, this.#settings.concepts);
    const entry: _Entry = {
      slot: this.#index.nextSlot(),
      doc,
      semantic: analyzed.semantic,
      verbClass: analyzed.verbClass,
      subjects: analyzed.subjects,
      domain: analyzed.semantic.domain,
      terms: [...analyzed.termTf.keys()],
      len: analyzed.len,
      vector: this.#settings.vectorWeight > 0 ? textVector(`${doc.name} ${doc.description ?? ''}`) : null,
      embedding,
      nameTerms: analyzed.nameTerms,
    };
    this.#index.insert(entry, analyzed.termTf);
    this.#namespaces.update(analyzed.namespace, analyzed.termTf, 1);
  }

  /** Removes tools by id; unknown ids are ignored. Returns how many were removed. */
  remove(ids: readonly string[]): number {
    let removed = 0;
    for (const id of ids) {
      const entry = this.#index.entries.get(id);
      if (entry === undefined) continue;
      const termTf = this.#index.remove(entry);
      this.#namespaces.update(entry.doc.namespace ?? '', termTf, -1);
      removed++;
    }
    return removed;
  }

  /** Ranks tools for a free-text query, best first. An empty query (after stop words) finds nothing. */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const limit = options.limit ?? 10;
    if (!Number.isInteger(limit) || limit < 0) {
      throw new SemanticError(
        'INVALID_ARGUMENT',
        `limit: expected a non-negative integer, got ${String(limit)}`,
      );
    }
    const text = this.#queryText(query);
    const fusion = this.#settings.fusion;
    const clauses = fusion !== null && limit > 0 ? _splitClauses(text) : [];
    if (clauses.length === 0) return this._rank(text, [], [], options.domain, limit);
    const { k, fullWeight } = fusion!;
    const depth = Math.max(limit, FUSION_DEPTH);
    const lists = [text, ...clauses].map((t) =>
      this._rank(t, [], [], options.domain, depth).map((hit) => hit.id),
    );
    const fused = _fuseRankings(lists, [fullWeight, ...clauses.map(() => 1)], k).slice(0, limit);
    return fused.map(({ id, score }) => ({
      id,
      score,
      use_when: this.#index.entries.get(id)!.semantic.use_when,
    }));
  }

  /** The query after cleanup (when on), or as given when cleanup leaves no search term. */
  #queryText(query: string): string {
    const cleaned = this.#settings.queryCleanup ? _cleanQuery(query, this.#settings.agentJargon) : query;
    return tokenizeForSearch(cleaned).length > 0 ? cleaned : query;
  }

  /**
   * Shared ranking of {@link ToolIndex.search} and `describeQuery`: free text plus explicit
   * intent verbs and subjects (which both join the BM25 query and drive the boosts). The steps, in
   * order: the query's terms, BM25F candidates with the boosts, the vector blend, server affinity,
   * name coverage, the learned ranker, the top `limit`.
   * @internal
   */
  _rank(
    text: string,
    intentVerbs: readonly string[],
    dataSubjects: readonly string[],
    domain: string | undefined,
    limit: number,
    sink?: (ids: string[], rows: Float64Array[]) => void,
  ): SearchHit[] {
    const queryText = [text, ...intentVerbs, ...dataSubjects].join(' ').trim();
    if (limit === 0 || queryText.length === 0 || tokenizeForSearch(queryText).length === 0) return [];
    const settings = this.#settings;
    const index = this.#index;
    const query = _queryTerms(queryText, index, settings);
    const features = settings.ranker !== null || sink !== undefined;
    const state = _candidates(index, settings, query, domain, features);
    const blended = _blendVectors(state, index.slots, this.#queryVectors(queryText), limit);
    const nsScores =
      settings.serverWeight > 0 ? this.#namespaces.scores(query.tf) : new Map<string, number>();
    _addServerAffinity(state, index.slots, nsScores, blended, settings.serverWeight);
    if (settings.nameCoverage > 0 && state.candidates.length > 0)
      _addNameCoverage(index, state, query.weights, settings.nameCoverage, limit);
    if (state.features !== null && state.candidates.length > 0) {
      const context = {
        index,
        namespaces: this.#namespaces,
        nsScores,
        weights: query.weights,
        ranker: settings.ranker,
      };
      _rerank(context, state, state.features, limit, sink);
    }
    return this.#topHits(state.candidates, state.scores, limit);
  }

  /** The query's word vector and embedding, with their weights in the blend. */
  #queryVectors(queryText: string): _QueryVectors {
    const wordVector = this.#settings.vectorWeight > 0 ? textVector(queryText) : null;
    const embedding = this.#embedder?.unitVector(queryText, 'the query') ?? null;
    return {
      wordVector,
      vectorWeight: this.#settings.vectorWeight,
      embedding,
      embeddingWeight: this.#embedder?.weight ?? 0,
    };
  }

  /**
   * The best `limit` candidates as hits, scores rounded to 6 decimals: what can reach the top
   * `limit` is kept (ties at the cut included), then ordered by score and id.
   */
  #topHits(candidates: readonly number[], scores: Float64Array, limit: number): SearchHit[] {
    for (let i = 0; i < scores.length; i++) {
      if (scores[i] !== Number.NEGATIVE_INFINITY) scores[i] = Math.round(scores[i]! * 1e6) / 1e6;
    }
    let cut = Number.NEGATIVE_INFINITY;
    if (candidates.length > limit) cut = Float64Array.from(scores).sort()[candidates.length - limit]!;
    const hits: SearchHit[] = [];
    candidates.forEach((slot, i) => {
      const score = scores[i]!;
      if (score === Number.NEGATIVE_INFINITY || score < cut) return;
      const entry = this.#index.slots[slot]!;
      hits.push({ id: entry.doc.id, score, use_when: entry.semantic.use_when });
    });
    hits.sort(_byScoreThenId);
    return hits.slice(0, limit);
  }

  /**
   * The ranker's features of the best candidates for a query, as {@link ToolIndex.search} would
   * rank it (query cleanup included; no clause fusion): ids in the blended order and one row per
   * id ({@link RANKER_FEATURES}). Used by `scripts/train-ranker.mjs`. @internal
   */
  _candidateFeatures(query: string, depth = _RERANK_DEPTH): { ids: string[]; rows: Float64Array[] } {
    let out: { ids: string[]; rows: Float64Array[] } = { ids: [], rows: [] };
    this._rank(this.#queryText(query), [], [], undefined, depth, (ids, rows) => {
      out = { ids, rows };
    });
    return out;
  }

  /** Tools of a domain (all tools when `domain` is undefined), sorted by id. @internal */
  _browse(domain: string | undefined, limit: number): SearchHit[] {
    const out: SearchHit[] = [];
    for (const id of this.ids()) {
      const entry = this.#index.entries.get(id)!;
      if (domain !== undefined && entry.domain !== domain) continue;
      out.push({ id, score: 0, use_when: entry.semantic.use_when });
      if (out.length >= limit) break;
    }
    return out;
  }
}
