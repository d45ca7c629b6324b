/**
 * Tool search (docs/design.md §7, search): a BM25F index over a tool catalog — name,
 * annotations, description, parameter names and descriptions, namespace, and the topics of the
 * concept lexicon — with the identifier-aware tokenizer, stop words and Porter stemming
 * (`stemmer`), small boosts for a matching verb class and data subject, live add/remove, and
 * deterministic ranking. The term dictionary is MiniSearch's radix tree (`SearchableMap`, exact
 * and prefix lookup); scoring is true BM25F (field frequencies combined before one saturation,
 * Robertson, Zaragoza and Taylor 2004), which MiniSearch's own per-field BM25 sum is not.
 * @module
 */
import SearchableMap from 'minisearch/SearchableMap';
import { _verbLemma } from './_lemma.js';
import { _searchAnnotations, annotateTool, type SemanticAnnotations } from './annotate.js';
import { CONCEPT_PREFIX, conceptWeights } from './concepts.js';
import { SemanticError } from './errors.js';
import { splitIdentifier } from './identifier.js';
import { singularize } from './inflect.js';
import { parseToolName } from './parse-tool-name.js';
import { _cleanQuery, _fuseRankings, _splitClauses } from './query-plan.js';
import { _checkRanker, _rankerScore, DEFAULT_RANKER, type LearnedRanker, RANKER_FEATURES } from './ranker.js';
import { stemWord, tokenizeForSearch } from './search-tokenizer.js';
import { staticEmbedder } from './static-embeddings.js';
import { synonymsOf } from './synonyms.js';
import { DEFAULT_EMBEDDER_WEIGHT, type TextEmbedder } from './text-embedder.js';
import { VERB_GROUPS, type VerbClass, verbGroupOf, WEAK_VERBS } from './verbs.js';
import { textVector, vectorSimilarity } from './word-vectors.js';

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
  /** The tool's display title (MCP `title`, or `annotations.title`); indexed with the name. */
  readonly title?: string | undefined;
  /** The server that offers the tool, as its MCP `initialize` answer describes it. */
  readonly server?: ToolServerInfo | undefined;
  /**
   * Annotations already computed (for instance with `schema_overrides` applied); generated with
   * {@link annotateTool} when absent.
   */
  readonly semantic?: Partial<SemanticAnnotations> | undefined;
}

/**
 * What an MCP server says about itself in its `initialize` answer (`serverInfo` and
 * `instructions`). Shared by all of a server's tools: it tells "the heroku one" from "the azure one".
 */
export interface ToolServerInfo {
  /** `serverInfo.name`. */
  readonly name?: string | undefined;
  /** `serverInfo.title`. */
  readonly title?: string | undefined;
  /** `serverInfo.description`. */
  readonly description?: string | undefined;
  /** The server's `instructions` (usage notes for the model). */
  readonly instructions?: string | undefined;
}

/** The fields of the index. */
export type SearchField =
  | 'name'
  | 'annotations'
  | 'description'
  | 'params'
  | 'namespace'
  | 'server'
  | 'instructions'
  | 'concepts';

/** Options of {@link ToolIndex}. */
export interface ToolIndexOptions {
  /** Per-field weights (BM25F boosts); see {@link DEFAULT_FIELD_BOOSTS}. */
  readonly fieldBoosts?: Partial<Record<SearchField, number>>;
  /** Multiplier added when the query's verb class matches the tool's (default 0.1). */
  readonly verbBoost?: number;
  /** Multiplier added when the query names the tool's data subject (default 0.1). */
  readonly subjectBoost?: number;
  /** BM25F parameters: saturation `k1` (default 2) and length normalisation `b` (default 0.75). */
  readonly bm25?: { readonly k1?: number; readonly b?: number };
  /** Let query terms of at least this many characters match as prefixes (default 5; 0 = off). */
  readonly prefixMinLength?: number;
  /**
   * Weight of query terms that are strong verbs of the verb table (`find`, `get`, `create`):
   * the verb class boost carries their meaning, so as words they count less (default 0.75).
   */
  readonly verbTermWeight?: number;
  /** Use the concept lexicon ({@link CONCEPT_LEXICON}) as a sixth field (default true). */
  readonly concepts?: boolean;
  /**
   * Weight of the word-vector similarity ({@link textVector}) added to the lexical score, which is
   * first divided by the query's best lexical score (default 0.75 with an embedder, which is the
   * default, and 1.5 with `embedder: null`; 0 = no word vectors).
   */
  readonly vectorWeight?: number;
  /**
   * Drop agent boilerplate from queries ("can you", "I need to", "right now") and add the words a
   * token's shape implies (`#eng` → channel, a URL → url page, `package.json` → file) (default true).
   */
  readonly queryCleanup?: boolean;
  /**
   * Expand developer shorthand in queries with the words tools use for it (`PR` → pull request,
   * `grep` → search content; the table `AGENT_JARGON`) (default true).
   */
  readonly agentJargon?: boolean;
  /**
   * Weight of index terms one edit away from a query term of 4+ characters that matches nothing
   * in the index, neither exactly nor as a prefix ("clik" → click, "wether" → weather)
   * (default 0.5; 0 = off).
   */
  readonly typoWeight?: number;
  /**
   * Weight of server affinity: each namespace is also scored as one document (the words of all its
   * tools and its server info), and a tool gains this weight times its namespace's score relative
   * to the best namespace's — "the heroku one", "post it in #eng" point at a server before a tool
   * (default 0.5; 0 = off; no effect with fewer than two namespaces).
   */
  readonly serverWeight?: number;
  /**
   * Multi-step tasks: a query of two or more clauses ("read the CSV, then post a summary to #eng")
   * is also ranked clause by clause, and the rankings are merged by weighted reciprocal-rank
   * fusion, the whole query's ranking weighing `fullWeight` and each clause's 1 (`true` =
   * `{ k: 3, fullWeight: 2 }`). Default off: on the MCP tuning tasks it moved nDCG@10 by less
   * than a point either way (see the README).
   */
  readonly clauseFusion?: boolean | { readonly k?: number; readonly fullWeight?: number };
  /**
   * Weight of name coverage: among the best 100 matches (or `limit`, if more), a tool gains this
   * weight times the query's best score times the share of its name's words, weighted by idf, that
   * the query asks for; words naming the tool's server or namespace do not count. "post a
   * message" names all of `slack_post_message`; a query sharing only an argument word with
   * `pricing_get` ("screenshot the pricing section") names half of it. Default off (0): 0.1 gained
   * on the MCP tuning tasks but lost on the older 156-query check set (see the README).
   */
  readonly nameCoverage?: number;
  /**
   * Query expansion with WordNet synonyms ({@link synonymsOf}): each query word also asks for the
   * synonyms of its most frequent sense at weight `first` and those of its next two senses at
   * `other`, never lowering a weight the query already gives a term. Default off (both 0): on the
   * MCP tuning tasks and MetaTool it moved nothing at 0.1–0.2 and cost at 0.4 (see the README).
   */
  readonly synonyms?: { readonly first?: number; readonly other?: number };
  /**
   * A text embedder whose cosine similarity, times `weight` (default {@link DEFAULT_EMBEDDER_WEIGHT}),
   * is added to the blended score of the best 100 lexical matches (or `limit`, if more), like the
   * word vectors: it reorders, it never adds a tool. Tools are embedded once, when added (name,
   * title and the first 400 characters of the description); each search embeds the query once.
   * `embed` must be synchronous and deterministic and return vectors of one length (or `null`
   * when it has nothing for a text); they are normalised here. Default {@link staticEmbedder}
   * (static embeddings distilled from a sentence encoder, no model at run time); `null` = none.
   */
  readonly embedder?: TextEmbedder | null;
  /**
   * Learned re-ranking: the best 100 matches of the blend above (or `limit`, if more) are
   * re-scored by a linear model over their features ({@link RANKER_FEATURES}), and the rest
   * dropped. `true` = {@link DEFAULT_RANKER} (trained on the MCP tuning tasks), `false` = off (the
   * hand-set blend of round 4), or a {@link LearnedRanker} of your own. Default: on
   * ({@link DEFAULT_RANKER}) when the embedder is {@link staticEmbedder} (the default): the default
   * ranker was trained on that blend's features, so with an embedder of your own, or none
   * (`embedder: null`, the round-3 ranking), it stays off unless asked for (see the README,
   * "Round 6").
   */
  readonly ranker?: boolean | LearnedRanker;
}

/** Default word-vector weight beside an embedder, and without one (both chosen on tuning sets). */
const VECTOR_WEIGHT_WITH_EMBEDDER = 0.75;
const VECTOR_WEIGHT_ALONE = 1.5;

/** Characters of a tool's description an embedder sees (the start says what the tool does). */
const EMBED_DESCRIPTION_CHARS = 400;

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
 * namespace are supporting evidence; concepts bridge words the tool never uses.
 */
export const DEFAULT_FIELD_BOOSTS: Readonly<Record<SearchField, number>> = Object.freeze({
  name: 2.5,
  annotations: 1.5,
  description: 1,
  params: 0.2,
  namespace: 0.5,
  server: 0.5,
  instructions: 0.1,
  concepts: 0.7,
});

const FIELDS: readonly SearchField[] = [
  'name',
  'annotations',
  'description',
  'params',
  'namespace',
  'server',
  'instructions',
  'concepts',
];
const FIELD_COUNT = FIELDS.length;

/**
 * The postings of one term: the slots of the documents holding it and, flattened, their per-field
 * term frequencies (`tf[i * FIELDS.length + f]`).
 */
interface _Posting {
  readonly slots: number[];
  readonly tf: number[];
}

interface _Entry {
  /** Dense integer handle used by postings and score accumulators. */
  readonly slot: number;
  readonly doc: ToolDocument;
  /** The fields search reads (generated, with the document's own `semantic` on top). */
  readonly semantic: Pick<SemanticAnnotations, 'intent_verbs' | 'data_subjects' | 'domain' | 'use_when'>;
  readonly verbClass: VerbClass | null;
  readonly subjects: ReadonlySet<string>;
  readonly domain: string;
  /** The document's terms (keys of its postings). */
  readonly terms: readonly string[];
  /** Field lengths in terms, in {@link FIELDS} order. */
  readonly len: Float64Array;
  /** Word-vector of name and description; null when none of their words has a vector. */
  readonly vector: Float32Array | null;
  /** The embedder's unit vector of the tool, or null (no embedder, or nothing to embed). */
  readonly embedding: Float32Array | null;
  /** Distinct search terms of the name's words (not the compound), sorted. */
  readonly nameTerms: readonly string[];
}

/** How many of the best lexical matches the word vectors reorder (at least `limit`). */
const RERANK_DEPTH = 100;

/** The word fields (every field but concepts, which is last) the ranker sees one by one. */
const _LEX_FIELDS = FIELDS.length - 1;

/** Server-evidence features per candidate (the last five of RANKER_FEATURES). */
const _SERVER_FEATURES = 5;

/** Fields whose terms make up a namespace document (not parameters, instructions, concepts). */
const NAMESPACE_FIELDS: readonly number[] = (
  ['name', 'annotations', 'description', 'namespace', 'server'] as const
).map((f) => FIELDS.indexOf(f));

/** Shortest query term that typo matching corrects (shorter words have too many neighbours). */
const TYPO_MIN_LENGTH = 4;

/** How deep each clause's ranking goes into the fusion (at least `limit`). */
const FUSION_DEPTH = 20;

/** Weight of a query term matched only as a prefix of an index term (MiniSearch's default). */
const PREFIX_WEIGHT = 0.375;

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
        _enumText(child, out);
        _paramText(child, depth + 1, out);
      }
    }
  }
  const items = node.items;
  if (items !== null && typeof items === 'object') _paramText(items, depth + 1, out);
  return out;
}

/** String values of a schema node's `enum` (and `items.enum`), e.g. `"open" | "closed"`. */
function _enumText(node: unknown, out: string[]): void {
  if (node === null || typeof node !== 'object') return;
  const values = (node as Record<string, unknown>).enum;
  if (Array.isArray(values)) for (const v of values.slice(0, 50)) if (typeof v === 'string') out.push(v);
}

/** The distinct words of some phrases, in first-seen order (so a subject counts once). */
function _uniqueWords(phrases: readonly string[]): string {
  const seen = new Set<string>();
  for (const phrase of phrases) for (const word of phrase.split(/\s+/)) if (word.length > 0) seen.add(word);
  return [...seen].join(' ');
}

/** Stems of the strong verbs of the verb table. */
const _VERB_STEMS: ReadonlySet<string> = (() => {
  const out = new Set<string>();
  for (const group of VERB_GROUPS) {
    for (const verb of group.verbs) if (!WEAK_VERBS.has(verb)) out.add(stemWord(verb));
  }
  return out;
})();

/**
 * Distinct search terms of the words of a tool name, without the compound and without the words
 * that name its server (`slack` in `slack_post_message`: they say where, not what), sorted.
 */
function _nameTerms(name: string, server: string): string[] {
  const own = new Set(tokenizeForSearch(server));
  const out = new Set<string>();
  for (const part of splitIdentifier(name))
    for (const t of tokenizeForSearch(part)) if (!own.has(t)) out.add(t);
  return [...out].sort();
}

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
  readonly #concepts: boolean;
  readonly #vectorWeight: number;
  readonly #queryCleanup: boolean;
  readonly #agentJargon: boolean;
  readonly #typoWeight: number;
  readonly #serverWeight: number;
  readonly #nameCoverage: number;
  readonly #synonymFirst: number;
  readonly #synonymOther: number;
  readonly #embedder: {
    readonly embed: (text: string) => Float32Array | null;
    readonly weight: number;
  } | null;
  /** Length of the embedder's vectors, fixed by the first one seen. */
  #embeddingLength = 0;
  /** Namespace documents: term counts over all their tools (fields of {@link NAMESPACE_FIELDS}). */
  readonly #namespaces = new Map<string, { tools: number; len: number; tf: Map<string, number> }>();
  /** Per term, the namespaces holding it and their counts. */
  readonly #nsPostings = new Map<string, Map<string, number>>();
  #nsTotalLen = 0;
  readonly #fusion: { readonly k: number; readonly fullWeight: number } | null;
  readonly #ranker: LearnedRanker | null;
  readonly #entries = new Map<string, _Entry>();
  /** Entries by slot (holes after removal are reused). */
  readonly #slots: (_Entry | undefined)[] = [];
  readonly #freeSlots: number[] = [];
  /** Postings by term. */
  readonly #postings = new Map<string, _Posting>();
  /** The term dictionary for prefix lookup: MiniSearch's radix tree (`SearchableMap`). */
  readonly #dictionary = new SearchableMap<true>();
  readonly #k1: number;
  readonly #b: number;
  readonly #totalLen = new Float64Array(FIELDS.length);

  constructor(options: ToolIndexOptions = {}) {
    this.#boosts = Object.freeze({ ...DEFAULT_FIELD_BOOSTS, ...(options.fieldBoosts ?? {}) });
    const numbers: [string, unknown, number, number][] = [
      ...FIELDS.map((f): [string, unknown, number, number] => [`fieldBoosts.${f}`, this.#boosts[f], 0, 100]),
      ['verbBoost', options.verbBoost ?? 0.1, 0, 10],
      ['subjectBoost', options.subjectBoost ?? 0.1, 0, 10],
      ['bm25.k1', options.bm25?.k1 ?? 2, 1e-9, 100],
      ['bm25.b', options.bm25?.b ?? 0.75, 0, 1],
      ['prefixMinLength', options.prefixMinLength ?? 5, 0, 1000],
      ['verbTermWeight', options.verbTermWeight ?? 0.75, 0, 10],
      ['vectorWeight', options.vectorWeight ?? 0, 0, 100],
      ['typoWeight', options.typoWeight ?? 0.5, 0, 10],
      ['serverWeight', options.serverWeight ?? 0.5, 0, 100],
      ['nameCoverage', options.nameCoverage ?? 0, 0, 100],
      ['synonyms.first', options.synonyms?.first ?? 0, 0, 10],
      ['synonyms.other', options.synonyms?.other ?? 0, 0, 10],
      ['embedder.weight', options.embedder?.weight ?? DEFAULT_EMBEDDER_WEIGHT, 0, 100],
      ...(typeof options.clauseFusion === 'object' && options.clauseFusion !== null
        ? ([
            ['clauseFusion.k', options.clauseFusion.k ?? 3, 0, 1000],
            ['clauseFusion.fullWeight', options.clauseFusion.fullWeight ?? 2, 0, 100],
          ] as [string, unknown, number, number][])
        : []),
    ];
    for (const [name, value, min, max] of numbers) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
        throw new SemanticError(
          'INVALID_ARGUMENT',
          `${name}: expected a number from ${min} to ${max}, got ${JSON.stringify(value)}`,
        );
      }
    }
    this.#verbBoost = options.verbBoost ?? 0.1;
    this.#subjectBoost = options.subjectBoost ?? 0.1;
    this.#prefixMin = options.prefixMinLength ?? 5;
    this.#verbTermWeight = options.verbTermWeight ?? 0.75;
    this.#concepts = options.concepts ?? true;
    this.#vectorWeight =
      options.vectorWeight ?? (options.embedder === null ? VECTOR_WEIGHT_ALONE : VECTOR_WEIGHT_WITH_EMBEDDER);
    this.#queryCleanup = options.queryCleanup ?? true;
    this.#agentJargon = options.agentJargon ?? true;
    this.#typoWeight = options.typoWeight ?? 0.5;
    this.#serverWeight = options.serverWeight ?? 0.5;
    this.#nameCoverage = options.nameCoverage ?? 0;
    this.#synonymFirst = options.synonyms?.first ?? 0;
    this.#synonymOther = options.synonyms?.other ?? 0;
    const embedder = options.embedder === undefined ? staticEmbedder : options.embedder;
    if (embedder !== null && typeof embedder?.embed !== 'function') {
      throw new SemanticError(
        'INVALID_ARGUMENT',
        `embedder: expected an object with an embed(text) function, got ${JSON.stringify(embedder)?.slice(0, 80)}`,
      );
    }
    this.#embedder =
      embedder === null
        ? null
        : { embed: embedder.embed, weight: embedder.weight ?? DEFAULT_EMBEDDER_WEIGHT };
    const fusion = options.clauseFusion ?? false;
    this.#fusion =
      fusion === false
        ? null
        : fusion === true
          ? { k: 3, fullWeight: 2 }
          : { k: fusion.k ?? 3, fullWeight: fusion.fullWeight ?? 2 };
    this.#k1 = options.bm25?.k1 ?? 2;
    this.#b = options.bm25?.b ?? 0.75;
    const ranker = options.ranker ?? embedder === staticEmbedder;
    this.#ranker =
      ranker === false ? null : ranker === true ? DEFAULT_RANKER : _checkRanker(ranker as LearnedRanker);
  }

  /** Number of tools in the index. */
  get size(): number {
    return this.#entries.size;
  }

  /** True when a tool with this id is indexed. */
  has(id: string): boolean {
    return this.#entries.has(id);
  }

  /**
   * A tool's annotations as the index sees them, or `undefined`: generated without siblings (so
   * `related_schemas` is empty — use `annotateTools` on a whole source for those), with the
   * document's own `semantic` fields on top.
   */
  annotations(id: string): SemanticAnnotations | undefined {
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    const { doc } = entry;
    return { ...annotateTool(doc, [], doc.namespace ?? ''), ...(doc.semantic ?? {}) };
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
    // Embeddings first, so a misbehaving embedder leaves the index unchanged.
    const embeddings = documents.map((doc) =>
      this.#embed(
        [doc.name, doc.title, (doc.description ?? '').slice(0, EMBED_DESCRIPTION_CHARS)]
          .filter(Boolean)
          .join(' '),
        `tool ${JSON.stringify(doc.id)}`,
      ),
    );
    documents.forEach((doc, docIndex) => {
      const namespace = doc.namespace ?? '';
      const semantic = { ..._searchAnnotations(doc, namespace), ...(doc.semantic ?? {}) };
      const parsed = parseToolName(doc.name);
      const verbClass =
        parsed.verbClass ??
        (semantic.intent_verbs[0] ? (verbGroupOf(semantic.intent_verbs[0])?.verbClass ?? null) : null);
      const subjects = new Set<string>();
      for (const s of semantic.data_subjects) for (const w of s.split(' ')) subjects.add(singularize(w));
      const texts: Record<Exclude<SearchField, 'concepts'>, string> = {
        name: doc.title ? `${doc.name} ${doc.title}` : doc.name,
        annotations: _uniqueWords([...semantic.intent_verbs, ...semantic.data_subjects]),
        description: doc.description ?? '',
        params: _paramText(doc.inputSchema).join(' '),
        namespace,
        server: [doc.server?.name, doc.server?.title, doc.server?.description].filter(Boolean).join(' '),
        instructions: doc.server?.instructions ?? '',
      };
      const termTf = new Map<string, number[]>();
      const len = new Float64Array(FIELDS.length);
      const conceptSource: string[] = [];
      FIELDS.forEach((field, f) => {
        let counts: Map<string, number>;
        if (field === 'concepts') {
          counts = this.#concepts ? conceptWeights(conceptSource) : new Map();
        } else {
          counts = new Map();
          const terms = tokenizeForSearch(texts[field]);
          if (field !== 'params' && field !== 'instructions') for (const t of terms) conceptSource.push(t);
          for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
        }
        for (const [t, c] of counts) {
          let row = termTf.get(t);
          if (row === undefined) {
            row = new Array<number>(FIELD_COUNT).fill(0);
            termTf.set(t, row);
          }
          row[f] = c;
          len[f] = len[f]! + c;
        }
        this.#totalLen[f] = this.#totalLen[f]! + len[f]!;
      });
      const slot = this.#freeSlots.pop() ?? this.#slots.length;
      for (const [t, row] of termTf) {
        let posting = this.#postings.get(t);
        if (posting === undefined) {
          posting = { slots: [], tf: [] };
          this.#postings.set(t, posting);
          this.#dictionary.set(t, true);
        }
        posting.slots.push(slot);
        for (const c of row) posting.tf.push(c);
      }
      const entry: _Entry = {
        slot,
        doc,
        semantic,
        verbClass,
        subjects,
        domain: semantic.domain,
        terms: [...termTf.keys()],
        len,
        vector: this.#vectorWeight > 0 ? textVector(`${doc.name} ${doc.description ?? ''}`) : null,
        embedding: embeddings[docIndex]!,
        nameTerms: _nameTerms(doc.name, `${namespace} ${doc.server?.name ?? ''} ${doc.server?.title ?? ''}`),
      };
      this.#entries.set(doc.id, entry);
      this.#slots[slot] = entry;
      this.#namespaceAdd(namespace, termTf, 1);
    });
  }

  /** The embedder's unit vector of `text` (null without an embedder or when it has none). */
  #embed(text: string, what: string): Float32Array | null {
    if (this.#embedder === null) return null;
    const v = this.#embedder.embed(text);
    if (v === null) return null;
    if (!(v instanceof Float32Array) || v.length === 0) {
      throw new SemanticError(
        'INVALID_ARGUMENT',
        `embedder: expected a non-empty Float32Array or null for ${what}, got ${Object.prototype.toString.call(v)}`,
      );
    }
    if (this.#embeddingLength === 0) this.#embeddingLength = v.length;
    if (v.length !== this.#embeddingLength) {
      throw new SemanticError(
        'INVALID_ARGUMENT',
        `embedder: expected ${this.#embeddingLength} components for ${what} (the length of its first vector), got ${v.length}`,
      );
    }
    let norm = 0;
    for (let k = 0; k < v.length; k++) norm += v[k]! * v[k]!;
    if (!(norm > 0) || !Number.isFinite(norm)) return null;
    norm = Math.sqrt(norm);
    return Float32Array.from(v, (x) => x / norm);
  }

  /** Adds (sign 1) or removes (sign −1) a tool's terms to or from its namespace document. */
  #namespaceAdd(namespace: string, termTf: ReadonlyMap<string, readonly number[]>, sign: 1 | -1): void {
    let ns = this.#namespaces.get(namespace);
    if (ns === undefined) {
      ns = { tools: 0, len: 0, tf: new Map() };
      this.#namespaces.set(namespace, ns);
    }
    ns.tools += sign;
    for (const [t, row] of termTf) {
      let c = 0;
      for (const f of NAMESPACE_FIELDS) c += row[f]!;
      if (c === 0) continue;
      c *= sign;
      ns.len += c;
      this.#nsTotalLen += c;
      const next = (ns.tf.get(t) ?? 0) + c;
      let posting = this.#nsPostings.get(t);
      if (posting === undefined) {
        posting = new Map();
        this.#nsPostings.set(t, posting);
      }
      if (next > 0) {
        ns.tf.set(t, next);
        posting.set(namespace, next);
      } else {
        ns.tf.delete(t);
        posting.delete(namespace);
        if (posting.size === 0) this.#nsPostings.delete(t);
      }
    }
    if (ns.tools === 0) this.#namespaces.delete(namespace);
  }

  /**
   * BM25 (k1 1.2, b 0.75) of the query's exact terms against each namespace document, divided by
   * the best; empty with fewer than two namespaces.
   */
  #namespaceScores(queryTf: ReadonlyMap<string, number>): Map<string, number> {
    const out = new Map<string, number>();
    const n = this.#namespaces.size;
    if (n < 2) return out;
    const avg = this.#nsTotalLen / n || 1;
    for (const term of [...queryTf.keys()].sort()) {
      const posting = this.#nsPostings.get(term);
      if (posting === undefined) continue;
      const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
      const w = queryTf.get(term)! * idf;
      for (const [name, tf] of posting) {
        const len = this.#namespaces.get(name)!.len;
        const part = (w * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * len) / avg));
        out.set(name, (out.get(name) ?? 0) + part);
      }
    }
    let best = 0;
    for (const v of out.values()) best = Math.max(best, v);
    if (best > 0) for (const [name, v] of out) out.set(name, v / best);
    return out;
  }

  /** Removes tools by id; unknown ids are ignored. Returns how many were removed. */
  remove(ids: readonly string[]): number {
    let removed = 0;
    for (const id of ids) {
      const entry = this.#entries.get(id);
      if (entry === undefined) continue;
      this.#entries.delete(id);
      this.#slots[entry.slot] = undefined;
      this.#freeSlots.push(entry.slot);
      for (let f = 0; f < FIELDS.length; f++) this.#totalLen[f] = this.#totalLen[f]! - entry.len[f]!;
      const termTf = new Map<string, number[]>();
      for (const t of entry.terms) {
        const posting = this.#postings.get(t);
        if (posting === undefined) continue;
        const at = posting.slots.indexOf(entry.slot);
        if (at >= 0) termTf.set(t, posting.tf.slice(at * FIELDS.length, (at + 1) * FIELDS.length));
        if (at >= 0) {
          posting.slots.splice(at, 1);
          posting.tf.splice(at * FIELDS.length, FIELDS.length);
        }
        if (posting.slots.length === 0) {
          this.#postings.delete(t);
          this.#dictionary.delete(t);
        }
      }
      this.#namespaceAdd(entry.doc.namespace ?? '', termTf, -1);
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
    const cleaned = this.#queryCleanup ? _cleanQuery(query, this.#agentJargon) : query;
    const text = tokenizeForSearch(cleaned).length > 0 ? cleaned : query;
    const clauses = this.#fusion !== null && limit > 0 ? _splitClauses(text) : [];
    if (clauses.length === 0) return this._rank(text, [], [], options.domain, limit);
    const { k, fullWeight } = this.#fusion!;
    const depth = Math.max(limit, FUSION_DEPTH);
    const lists = [text, ...clauses].map((t) =>
      this._rank(t, [], [], options.domain, depth).map((hit) => hit.id),
    );
    const fused = _fuseRankings(lists, [fullWeight, ...clauses.map(() => 1)], k).slice(0, limit);
    return fused.map(({ id, score }) => ({ id, score, use_when: this.#entries.get(id)!.semantic.use_when }));
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
    sink?: (ids: string[], rows: Float64Array[]) => void,
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
    const base = tokenizeForSearch(queryText);
    // Query term weights: occurrences of each word, plus the concepts the words evoke.
    const queryTf = new Map<string, number>();
    for (const t of base) queryTf.set(t, (queryTf.get(t) ?? 0) + 1);
    if (this.#concepts) for (const [t, w] of conceptWeights(base)) queryTf.set(t, w);
    // Index terms to score: the query terms themselves and, for words of prefixMin or more
    // characters, the index terms they prefix (weighted PREFIX_WEIGHT), e.g. `deploy` → `deployment`.
    const weights = new Map<string, number>();
    for (const [term, w] of queryTf) {
      const verbFactor = _VERB_STEMS.has(term) ? this.#verbTermWeight : 1;
      let found = this.#postings.has(term);
      if (found) weights.set(term, Math.max(weights.get(term) ?? 0, w * verbFactor));
      if (term.startsWith(CONCEPT_PREFIX)) continue;
      if (this.#prefixMin > 0 && term.length >= this.#prefixMin) {
        for (const derived of this.#dictionary.atPrefix(term).keys()) {
          if (derived === term) continue;
          found = true;
          const pw = PREFIX_WEIGHT * verbFactor;
          if ((weights.get(derived) ?? 0) < pw) weights.set(derived, pw);
        }
      }
      // A word the catalog never uses, in any form, is most likely a typo of one it does.
      if (!found && this.#typoWeight > 0 && term.length >= TYPO_MIN_LENGTH) {
        for (const near of this.#dictionary.fuzzyGet(term, 1).keys()) {
          if (near.startsWith(CONCEPT_PREFIX)) continue;
          const tw = this.#typoWeight * verbFactor;
          if ((weights.get(near) ?? 0) < tw) weights.set(near, tw);
        }
      }
    }
    if (this.#synonymFirst > 0 || this.#synonymOther > 0) this.#expandSynonyms(base, weights);
    const n = this.#entries.size;
    const k1 = this.#k1;
    const b = this.#b;
    const norm = new Float64Array(FIELDS.length);
    const boosts = FIELDS.map((f) => this.#boosts[f]);
    for (let f = 0; f < FIELDS.length; f++) norm[f] = this.#totalLen[f]! > 0 ? n / this.#totalLen[f]! : 1;
    // Term-at-a-time BM25F, terms in sorted order so the float sums never depend on insertion order.
    const size = this.#slots.length;
    const lex = new Float64Array(size);
    const con = new Float64Array(size);
    const touched = new Uint8Array(size);
    const candidates: number[] = [];
    // Features of the learned ranker: per-field BM25 of the word terms, unboosted.
    const features = this.#ranker !== null || sink !== undefined;
    const fieldAcc = features ? new Float64Array(size * _LEX_FIELDS) : null;
    for (const term of [...weights.keys()].sort()) {
      const posting = this.#postings.get(term)!;
      const df = posting.slots.length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const scale = weights.get(term)! * idf;
      const acc = term.startsWith(CONCEPT_PREFIX) ? con : lex;
      const { slots, tf: tfs } = posting;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]!;
        const len = this.#slots[slot]!.len;
        let tf = 0;
        for (let f = 0, o = i * FIELD_COUNT; f < FIELD_COUNT; f++, o++) {
          const c = tfs[o]!;
          if (c !== 0) tf += (boosts[f]! * c) / (1 - b + b * len[f]! * norm[f]!);
        }
        if (tf === 0) continue;
        acc[slot] = acc[slot]! + (scale * (tf * (k1 + 1))) / (k1 + tf);
        if (fieldAcc !== null && acc === lex) {
          for (let f = 0, o = i * FIELD_COUNT; f < _LEX_FIELDS; f++, o++) {
            const c = tfs[o]!;
            if (c === 0) continue;
            const t = c / (1 - b + b * len[f]! * norm[f]!);
            fieldAcc[slot * _LEX_FIELDS + f] =
              fieldAcc[slot * _LEX_FIELDS + f]! + (scale * t * (k1 + 1)) / (k1 + t);
          }
        }
        if (touched[slot] === 0) {
          touched[slot] = 1;
          candidates.push(slot);
        }
      }
    }
    const scores = new Float64Array(candidates.length);
    const matches = features ? new Uint8Array(candidates.length) : null;
    candidates.forEach((slot, i) => {
      const entry = this.#slots[slot]!;
      if (domain !== undefined && entry.domain !== domain) {
        scores[i] = Number.NEGATIVE_INFINITY;
        return;
      }
      let bonus = 1;
      if (entry.verbClass !== null && classes.has(entry.verbClass)) {
        bonus += this.#verbBoost;
        if (matches !== null) matches[i] = 1;
      }
      for (const s of entry.subjects) {
        if (words.has(s)) {
          bonus += this.#subjectBoost;
          if (matches !== null) matches[i] = matches[i]! | 2;
          break;
        }
      }
      scores[i] = (lex[slot]! + con[slot]!) * bonus;
    });
    // Blend: vectors reorder the lexical matches (they never add a tool that shares no term or
    // concept with the query: averaged word vectors of unrelated texts are still fairly similar).
    // The lexical score counts relative to the query's best, plus the weighted similarity.
    // Only the best RERANK_DEPTH lexical matches (or `limit`, if larger) are reordered; the rest
    // keep their relative lexical score, which is what bounds the cost on big catalogs.
    const queryVector = this.#vectorWeight > 0 ? textVector(queryText) : null;
    const queryEmbedding = this.#embed(queryText, 'the query');
    const blended = queryVector !== null || queryEmbedding !== null;
    const lexical = features ? Float64Array.from(scores) : null;
    const cosines = features ? new Float64Array(candidates.length * 2) : null;
    if (blended && candidates.length > 0) {
      const sorted = Float64Array.from(scores).sort();
      const best = sorted[sorted.length - 1]!;
      const floor = sorted[Math.max(0, sorted.length - Math.max(RERANK_DEPTH, limit))]!;
      candidates.forEach((slot, i) => {
        if (scores[i] === Number.NEGATIVE_INFINITY || best <= 0) return;
        const lexical = scores[i]! / best;
        const { vector, embedding } = this.#slots[slot]!;
        let score = lexical;
        if (scores[i]! >= floor) {
          if (queryVector !== null && vector !== null) {
            const cos = vectorSimilarity(queryVector, vector);
            score += this.#vectorWeight * cos;
            if (cosines !== null) cosines[2 * i] = cos;
          }
          if (queryEmbedding !== null && embedding !== null) {
            const cos = vectorSimilarity(queryEmbedding, embedding);
            score += this.#embedder!.weight * cos;
            if (cosines !== null) cosines[2 * i + 1] = cos;
          }
        }
        scores[i] = score;
      });
    }
    // Server affinity, on the same relative scale as the blend above.
    const nsScores = this.#serverWeight > 0 ? this.#namespaceScores(queryTf) : new Map<string, number>();
    if (nsScores.size > 0 && candidates.length > 0) {
      let best = 0;
      if (!blended) for (const v of scores) best = Math.max(best, v);
      candidates.forEach((slot, i) => {
        if (scores[i] === Number.NEGATIVE_INFINITY) return;
        if (!blended && best > 0) scores[i] = scores[i]! / best;
        const ns = nsScores.get(this.#slots[slot]!.doc.namespace ?? '') ?? 0;
        scores[i] = scores[i]! + this.#serverWeight * ns;
      });
    }
    if (this.#nameCoverage > 0 && candidates.length > 0)
      this.#addNameCoverage(candidates, scores, weights, limit);
    if (features && candidates.length > 0) {
      this.#rerank(
        {
          candidates,
          scores,
          lexical: lexical!,
          lex,
          con,
          fieldAcc: fieldAcc!,
          matches: matches!,
          cosines: cosines!,
        },
        nsScores,
        weights,
        limit,
        sink,
      );
    }
    for (let i = 0; i < scores.length; i++) {
      if (scores[i] !== Number.NEGATIVE_INFINITY) scores[i] = Math.round(scores[i]! * 1e6) / 1e6;
    }
    // Keep what can reach the top `limit` (ties at the cut included), then order by score and id.
    let cut = Number.NEGATIVE_INFINITY;
    if (candidates.length > limit) cut = Float64Array.from(scores).sort()[candidates.length - limit]!;
    const hits: SearchHit[] = [];
    candidates.forEach((slot, i) => {
      const score = scores[i]!;
      if (score === Number.NEGATIVE_INFINITY || score < cut) return;
      const entry = this.#slots[slot]!;
      hits.push({ id: entry.doc.id, score, use_when: entry.semantic.use_when });
    });
    hits.sort(_byScoreThenId);
    return hits.slice(0, limit);
  }

  /** Adds the WordNet synonyms of the query's terms that the index holds, never lowering a weight. */
  #expandSynonyms(base: readonly string[], weights: Map<string, number>): void {
    const add = (term: string, w: number): void => {
      if (w <= 0 || !this.#postings.has(term)) return;
      const weight = w * (_VERB_STEMS.has(term) ? this.#verbTermWeight : 1);
      if ((weights.get(term) ?? 0) < weight) weights.set(term, weight);
    };
    for (const term of [...new Set(base)].sort()) {
      const set = synonymsOf(term);
      if (set === undefined) continue;
      for (const s of set.first) add(s, this.#synonymFirst);
      for (const s of set.other) add(s, this.#synonymOther);
    }
  }

  /**
   * Name coverage (see {@link ToolIndexOptions.nameCoverage}) for the best RERANK_DEPTH scores (or
   * `limit`, if larger): the idf-weighted share of the name's terms the query weighs (a prefix or
   * typo match counts at its weight), times the weight and the query's best score.
   */
  #addNameCoverage(
    candidates: readonly number[],
    scores: Float64Array,
    weights: ReadonlyMap<string, number>,
    limit: number,
  ): void {
    const sorted = Float64Array.from(scores).sort();
    const best = sorted[sorted.length - 1]!;
    if (!(best > 0)) return;
    const floor = sorted[Math.max(0, sorted.length - Math.max(RERANK_DEPTH, limit))]!;
    candidates.forEach((slot, i) => {
      if (scores[i] === Number.NEGATIVE_INFINITY || scores[i]! < floor) return;
      scores[i] = scores[i]! + this.#nameCoverage * best * this.#nameShare(slot, weights);
    });
  }

  /** The idf-weighted share of a tool's name terms the query weighs (0 when it has none). */
  #nameShare(slot: number, weights: ReadonlyMap<string, number>): number {
    const n = this.#entries.size;
    let covered = 0;
    let total = 0;
    for (const term of this.#slots[slot]!.nameTerms) {
      const df = this.#postings.get(term)?.slots.length ?? 0;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      total += idf;
      covered += idf * Math.min(1, weights.get(term) ?? 0);
    }
    return total > 0 ? covered / total : 0;
  }

  /**
   * Learned re-ranking (see {@link ToolIndexOptions.ranker}): the best RERANK_DEPTH candidates
   * (or `limit`, if more) by the blended score get a feature row each ({@link RANKER_FEATURES});
   * the sink, when given, receives them in that order; with a ranker, their scores become the
   * model's and every other candidate is dropped.
   */
  #rerank(
    state: {
      readonly candidates: readonly number[];
      readonly scores: Float64Array;
      readonly lexical: Float64Array;
      readonly lex: Float64Array;
      readonly con: Float64Array;
      readonly fieldAcc: Float64Array;
      readonly matches: Uint8Array;
      readonly cosines: Float64Array;
    },
    nsScores: ReadonlyMap<string, number>,
    weights: ReadonlyMap<string, number>,
    limit: number,
    sink: ((ids: string[], rows: Float64Array[]) => void) | undefined,
  ): void {
    const { candidates, scores, lexical, lex, con, fieldAcc, matches, cosines } = state;
    const idOf = (i: number): string => this.#slots[candidates[i]!]!.doc.id;
    const depth = Math.max(RERANK_DEPTH, limit);
    let order: number[] = [];
    for (let i = 0; i < candidates.length; i++) if (scores[i] !== Number.NEGATIVE_INFINITY) order.push(i);
    if (order.length > depth) {
      // Numeric selection first: sorting thousands of candidates by id would cost more than the model.
      const floor = Float64Array.from(order, (i) => scores[i]!).sort()[order.length - depth]!;
      order = order.filter((i) => scores[i]! >= floor);
    }
    order.sort((x, y) => scores[y]! - scores[x]! || (idOf(x) < idOf(y) ? -1 : 1));
    const top = order.slice(0, depth);
    let bestBlend = 0;
    let bestLexical = 0;
    let bestWords = 0;
    let bestConcepts = 0;
    for (const i of top) {
      const slot = candidates[i]!;
      bestBlend = Math.max(bestBlend, scores[i]!);
      bestLexical = Math.max(bestLexical, lexical[i]!);
      bestWords = Math.max(bestWords, lex[slot]!);
      bestConcepts = Math.max(bestConcepts, con[slot]!);
    }
    const rel = (x: number, best: number): number => (best > 0 ? x / best : 0);
    const position = new Map(top.map((i, r) => [i, r]));
    const rankBy = (value: (i: number) => number): Map<number, number> => {
      const sorted = [...top].sort((x, y) => value(y) - value(x) || position.get(x)! - position.get(y)!);
      return new Map(sorted.map((i, r) => [i, 1 / Math.log2(r + 2)]));
    };
    const lexicalRank = rankBy((i) => lexical[i]!);
    const embeddingRank = rankBy((i) => cosines[2 * i + 1]!);
    const server = this.#serverEvidence(
      top.map((i) => ({ slot: candidates[i]!, blend: rel(scores[i]!, bestBlend) })),
    );
    const rows = top.map((i, r) => {
      const slot = candidates[i]!;
      const entry = this.#slots[slot]!;
      const row = new Float64Array(RANKER_FEATURES.length);
      row[0] = rel(scores[i]!, bestBlend);
      row[1] = rel(lexical[i]!, bestLexical);
      row[2] = rel(lex[slot]!, bestWords);
      row[3] = rel(con[slot]!, bestConcepts);
      row[4] = cosines[2 * i]!;
      row[5] = cosines[2 * i + 1]!;
      row[6] = nsScores.get(entry.doc.namespace ?? '') ?? 0;
      for (let f = 0; f < _LEX_FIELDS; f++) row[7 + f] = rel(fieldAcc[slot * _LEX_FIELDS + f]!, bestLexical);
      row[14] = matches[i]! & 1;
      row[15] = (matches[i]! >> 1) & 1;
      row[16] = this.#nameShare(slot, weights);
      row[17] = lexicalRank.get(i)!;
      row[18] = embeddingRank.get(i)!;
      for (let k = 0; k < _SERVER_FEATURES; k++) row[19 + k] = server[r * _SERVER_FEATURES + k]!;
      return row;
    });
    if (sink !== undefined) sink(top.map(idOf), rows);
    const ranker = this.#ranker;
    if (ranker === null) return;
    const kept = new Set(top);
    for (let i = 0; i < candidates.length; i++) if (!kept.has(i)) scores[i] = Number.NEGATIVE_INFINITY;
    top.forEach((i, r) => {
      scores[i] = _rankerScore(ranker, rows[r]!);
    });
  }

  /**
   * Server evidence of ranked candidates (best first, `blend` relative to the best), flattened,
   * {@link _SERVER_FEATURES} per candidate: the share of the first 10 and first 5 candidates'
   * blend held by the candidate's namespace, the count of its namespace among the first 10 / 10,
   * 1 / log2(rank + 2) among its namespace's candidates, and ln(namespace size) / ln(index size).
   */
  #serverEvidence(ranked: readonly { readonly slot: number; readonly blend: number }[]): Float64Array {
    const out = new Float64Array(ranked.length * _SERVER_FEATURES);
    const mass10 = new Map<string, number>();
    const mass5 = new Map<string, number>();
    const count10 = new Map<string, number>();
    let total10 = 0;
    let total5 = 0;
    const nsOf = (r: number): string => this.#slots[ranked[r]!.slot]!.doc.namespace ?? '';
    for (let r = 0; r < Math.min(10, ranked.length); r++) {
      const ns = nsOf(r);
      const b = Math.max(0, ranked[r]!.blend);
      mass10.set(ns, (mass10.get(ns) ?? 0) + b);
      count10.set(ns, (count10.get(ns) ?? 0) + 1);
      total10 += b;
      if (r < 5) {
        mass5.set(ns, (mass5.get(ns) ?? 0) + b);
        total5 += b;
      }
    }
    const seen = new Map<string, number>();
    const logSize = Math.log(this.#entries.size);
    for (let r = 0; r < ranked.length; r++) {
      const ns = nsOf(r);
      const within = seen.get(ns) ?? 0;
      seen.set(ns, within + 1);
      const o = r * _SERVER_FEATURES;
      out[o] = total10 > 0 ? (mass10.get(ns) ?? 0) / total10 : 0;
      out[o + 1] = total5 > 0 ? (mass5.get(ns) ?? 0) / total5 : 0;
      out[o + 2] = (count10.get(ns) ?? 0) / 10;
      out[o + 3] = 1 / Math.log2(within + 2);
      out[o + 4] = logSize > 0 ? Math.log(this.#namespaces.get(ns)?.tools ?? 1) / logSize : 0;
    }
    return out;
  }

  /**
   * The ranker's features of the best candidates for a query, as {@link ToolIndex.search} would
   * rank it (query cleanup included; no clause fusion): ids in the blended order and one row per
   * id ({@link RANKER_FEATURES}). Used by `scripts/train-ranker.mjs`. @internal
   */
  _candidateFeatures(query: string, depth = RERANK_DEPTH): { ids: string[]; rows: Float64Array[] } {
    const cleaned = this.#queryCleanup ? _cleanQuery(query, this.#agentJargon) : query;
    const text = tokenizeForSearch(cleaned).length > 0 ? cleaned : query;
    let out: { ids: string[]; rows: Float64Array[] } = { ids: [], rows: [] };
    this._rank(text, [], [], undefined, depth, (ids, rows) => {
      out = { ids, rows };
    });
    return out;
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
