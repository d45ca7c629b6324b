/**
 * Tool search (seed §4.6 mechanism 3, issue #4): a BM25F index over a tool catalog — name,
 * annotations, description, parameter names and descriptions, namespace — with the
 * identifier-aware tokenizer, stop words and stemming, small boosts for a matching verb class and
 * data subject, live add/remove, and deterministic ranking.
 * @module
 */
import MiniSearch from 'minisearch';
import { _verbLemma } from './_lemma.js';
import { annotateTool, type SemanticAnnotations } from './annotate.js';
import { CONCEPT_PREFIX, conceptTerms } from './concepts.js';
import { SemanticError } from './errors.js';
import { singularize } from './inflect.js';
import { parseToolName } from './parse-tool-name.js';
import { stemWord, tokenizeForSearch } from './search-tokenizer.js';
import { VERB_GROUPS, type VerbClass, verbGroupOf, WEAK_VERBS } from './verbs.js';

/** One tool to index. */
export interface ToolDocument {
  /** Unique id; for `xp.schema.describe` use the schema kind. */
  readonly id: string;
  /** The tool name. */
  readonly name: string;
  /** The tool description. */
  readonly description?: string | undefined;
  /** The tool's JSON Schema input: property names and descriptions are indexed. */
  readonly inputSchema?: unknown;
  /** The namespace (or server name) the tool belongs to. */
  readonly namespace?: string | undefined;
  /**
   * Annotations already computed (for instance with `schema_overrides` applied); generated with
   * {@link annotateTool} when absent.
   */
  readonly semantic?: Partial<SemanticAnnotations> | undefined;
}

/** The fields of the index. */
export type SearchField = 'name' | 'annotations' | 'description' | 'params' | 'namespace' | 'concepts';

/** Options of {@link ToolIndex}. */
export interface ToolIndexOptions {
  /** Per-field weights (BM25F boosts); see {@link DEFAULT_FIELD_BOOSTS}. */
  readonly fieldBoosts?: Partial<Record<SearchField, number>>;
  /** Multiplier added when the query's verb class matches the tool's (default 0.1). */
  readonly verbBoost?: number;
  /** Multiplier added when the query names the tool's data subject (default 0.1). */
  readonly subjectBoost?: number;
  /** BM25 parameters (default k1 1.2, b 0.75, d 0.5 as in MiniSearch). */
  readonly bm25?: { readonly k: number; readonly b: number; readonly d: number };
  /** Let query terms of at least this many characters match as prefixes (default 5; 0 = off). */
  readonly prefixMinLength?: number;
  /**
   * Weight of query terms that are strong verbs of the verb table (`find`, `get`, `create`):
   * the verb class boost carries their meaning, so as words they count less (default 0.5).
   */
  readonly verbTermWeight?: number;
  /** Count a concept once per query word that evokes it (default true) rather than once. */
  readonly conceptPerWord?: boolean;
  /** Coordination exponent: scores are multiplied by (matched query terms ÷ query terms)^this (default 0). */
  readonly coordination?: number;
  /** Count a concept once per document word that evokes it (default false). */
  readonly conceptTf?: boolean;
}

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

/**
 * Default field weights: the name says most in the fewest words; annotations restate the name's
 * verb and subject in the agent's vocabulary; descriptions are long and noisy; parameters and the
 * namespace are supporting evidence.
 */
export const DEFAULT_FIELD_BOOSTS: Readonly<Record<SearchField, number>> = Object.freeze({
  name: 2.5,
  annotations: 1.5,
  description: 1,
  params: 0.4,
  namespace: 0.5,
  concepts: 0.5,
});

const FIELDS: readonly SearchField[] = [
  'name',
  'annotations',
  'description',
  'params',
  'namespace',
  'concepts',
];

interface _Entry {
  readonly doc: ToolDocument;
  readonly semantic: SemanticAnnotations;
  readonly verbClass: VerbClass | null;
  readonly subjects: ReadonlySet<string>;
  readonly domain: string;
  readonly row: Readonly<Record<string, string>>;
}

/** Property names and descriptions of a JSON Schema, depth-first, bounded. */
function _paramText(schema: unknown, depth = 0, out: string[] = []): string[] {
  if (depth > 3 || schema === null || typeof schema !== 'object') return out;
  const node = schema as Record<string, unknown>;
  const props = node.properties;
  if (props !== null && typeof props === 'object' && !Array.isArray(props)) {
    for (const key of Object.keys(props).sort()) {
      out.push(key);
      const child = (props as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') {
        const d = (child as Record<string, unknown>).description;
        if (typeof d === 'string') out.push(d);
        _paramText(child, depth + 1, out);
      }
    }
  }
  const items = node.items;
  if (items !== null && typeof items === 'object') _paramText(items, depth + 1, out);
  return out;
}

/** Stems of the strong verbs of the verb table. */
const _VERB_STEMS: ReadonlySet<string> = (() => {
  const out = new Set<string>();
  for (const group of VERB_GROUPS) {
    for (const verb of group.verbs) if (!WEAK_VERBS.has(verb)) out.add(stemWord(verb));
  }
  return out;
})();

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
  readonly #boosts: Readonly<Record<SearchField, number>>;
  readonly #verbBoost: number;
  readonly #subjectBoost: number;
  readonly #prefixMin: number;
  readonly #verbTermWeight: number;
  readonly #coordination: number;
  readonly #conceptTf: boolean;
  readonly #entries = new Map<string, _Entry>();
  readonly #search: MiniSearch;

  constructor(options: ToolIndexOptions = {}) {
    this.#boosts = Object.freeze({ ...DEFAULT_FIELD_BOOSTS, ...(options.fieldBoosts ?? {}) });
    this.#verbBoost = options.verbBoost ?? 0.1;
    this.#subjectBoost = options.subjectBoost ?? 0.1;
    this.#prefixMin = options.prefixMinLength ?? 5;
    this.#verbTermWeight = options.verbTermWeight ?? 0.5;
    this.#coordination = options.coordination ?? 0;
    this.#conceptTf = options.conceptTf ?? true;
    const bm25 = options.bm25 ?? { k: 1.2, b: 0.75, d: 0.5 };
    this.#search = new MiniSearch({
      idField: 'id',
      fields: [...FIELDS],
      storeFields: [],
      tokenize: (text: string, field?: string) =>
        field === 'concepts' ? text.split(' ').filter((t) => t.length > 0) : tokenizeForSearch(text),
      processTerm: (term: string) => term,
      searchOptions: {
        bm25: { ...bm25 },
        tokenize: (text: string) => {
          const terms = tokenizeForSearch(text);
          return [...terms, ...conceptTerms(terms, !(options.conceptPerWord ?? true))];
        },
      },
      autoVacuum: false,
    });
  }

  /** Number of tools in the index. */
  get size(): number {
    return this.#entries.size;
  }

  /** True when a tool with this id is indexed. */
  has(id: string): boolean {
    return this.#entries.has(id);
  }

  /** The annotations the index holds for a tool (generated or given), or `undefined`. */
  annotations(id: string): SemanticAnnotations | undefined {
    return this.#entries.get(id)?.semantic;
  }

  /** Ids of all indexed tools, sorted. */
  ids(): string[] {
    return [...this.#entries.keys()].sort();
  }

  /**
   * Adds tools. Throws {@link SemanticError} `DUPLICATE_ID` (and adds none of the batch) when an id
   * is already indexed or repeated; replace a tool by removing it first.
   */
  add(documents: readonly ToolDocument[]): void {
    const seen = new Set<string>();
    for (const doc of documents) {
      if (typeof doc?.id !== 'string' || doc.id.length === 0 || typeof doc.name !== 'string') {
        throw new SemanticError(
          'INVALID_ARGUMENT',
          `expected a document with a non-empty string id and a string name, got ${JSON.stringify(doc)?.slice(0, 120)}`,
        );
      }
      if (this.#entries.has(doc.id) || seen.has(doc.id)) {
        throw new SemanticError(
          'DUPLICATE_ID',
          `tool id ${JSON.stringify(doc.id)} is already indexed; remove it first`,
        );
      }
      seen.add(doc.id);
    }
    const rows: Record<string, string>[] = [];
    for (const doc of documents) {
      const namespace = doc.namespace ?? '';
      const generated = annotateTool(doc, [], namespace);
      const semantic: SemanticAnnotations = { ...generated, ...(doc.semantic ?? {}) };
      const parsed = parseToolName(doc.name);
      const verbClass =
        parsed.verbClass ??
        (semantic.intent_verbs[0] ? (verbGroupOf(semantic.intent_verbs[0])?.verbClass ?? null) : null);
      const subjects = new Set<string>();
      for (const s of semantic.data_subjects) for (const w of s.split(' ')) subjects.add(singularize(w));
      const row = {
        id: doc.id,
        name: doc.name,
        annotations: [...semantic.intent_verbs, ...semantic.data_subjects].join(' '),
        description: doc.description ?? '',
        params: _paramText(doc.inputSchema).join(' '),
        namespace,
        concepts: '',
      };
      row.concepts = conceptTerms(
        tokenizeForSearch(`${row.name} ${row.annotations} ${row.description} ${namespace}`),
        !this.#conceptTf,
      ).join(' ');
      this.#entries.set(doc.id, { doc, semantic, verbClass, subjects, domain: semantic.domain, row });
      rows.push(row);
    }
    this.#search.addAll(rows);
  }

  /** Removes tools by id; unknown ids are ignored. Returns how many were removed. */
  remove(ids: readonly string[]): number {
    let removed = 0;
    for (const id of ids) {
      const entry = this.#entries.get(id);
      if (entry === undefined) continue;
      // `remove` (not `discard`) updates term statistics at once, so scores after a refresh equal
      // those of an index built from scratch.
      this.#search.remove(entry.row);
      this.#entries.delete(id);
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
    return this._rank(query, [], [], options.domain, limit);
  }

  /**
   * Shared ranking of {@link ToolIndex.search} and `describeQuery`: free text plus explicit
   * intent verbs and subjects (which both join the BM25 query and drive the boosts).
   * @internal
   */
  _rank(
    text: string,
    intentVerbs: readonly string[],
    dataSubjects: readonly string[],
    domain: string | undefined,
    limit: number,
  ): SearchHit[] {
    const queryText = [text, ...intentVerbs, ...dataSubjects].join(' ').trim();
    if (limit === 0 || queryText.length === 0 || tokenizeForSearch(queryText).length === 0) return [];
    const classes = new Set<VerbClass>();
    const words = new Set<string>();
    for (const m of queryText.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
      const lemma = _verbLemma(m[0]);
      if (lemma !== null) classes.add(verbGroupOf(lemma)!.verbClass);
      words.add(singularize(m[0]));
    }
    const prefixMin = this.#prefixMin;
    const raw = this.#search.search(queryText, {
      fields: FIELDS.filter((f) => this.#boosts[f] > 0),
      boost: { ...this.#boosts },
      prefix:
        prefixMin > 0
          ? (term: string) => term.length >= prefixMin && !term.startsWith(CONCEPT_PREFIX)
          : false,
      combineWith: 'OR',
      boostTerm: (term: string) => (_VERB_STEMS.has(term) ? this.#verbTermWeight : 1),
    });
    const queryTerms = new Set(tokenizeForSearch(queryText)).size;
    const hits: SearchHit[] = [];
    for (const r of raw) {
      const entry = this.#entries.get(r.id as string);
      if (entry === undefined) continue;
      if (domain !== undefined && entry.domain !== domain) continue;
      let factor = 1;
      if (this.#coordination > 0) {
        const matched = r.terms.filter((t) => !t.startsWith(CONCEPT_PREFIX)).length;
        factor = ((matched + 1) / (queryTerms + 1)) ** this.#coordination;
      }
      let bonus = 1;
      if (entry.verbClass !== null && classes.has(entry.verbClass)) bonus += this.#verbBoost;
      for (const s of entry.subjects) {
        if (words.has(s)) {
          bonus += this.#subjectBoost;
          break;
        }
      }
      hits.push({
        id: entry.doc.id,
        score: Math.round(r.score * factor * bonus * 1e6) / 1e6,
        use_when: entry.semantic.use_when,
      });
    }
    hits.sort(_byScoreThenId);
    return hits.slice(0, limit);
  }

  /** Tools of a domain (all tools when `domain` is undefined), sorted by id. @internal */
  _browse(domain: string | undefined, limit: number): SearchHit[] {
    const out: SearchHit[] = [];
    for (const id of this.ids()) {
      const entry = this.#entries.get(id)!;
      if (domain !== undefined && entry.domain !== domain) continue;
      out.push({ id, score: 0, use_when: entry.semantic.use_when });
      if (out.length >= limit) break;
    }
    return out;
  }
}
