/**
 * The options of `ToolIndex` and their resolution: every option's default, its allowed range
 * (an out-of-range value throws `INVALID_ARGUMENT` when the index is built), and the settings the
 * index searches with.
 * @module
 */
import { SemanticError } from './errors.js';
import { _checkRanker, DEFAULT_RANKER, type LearnedRanker } from './ranker.js';
import { staticEmbedder } from './static-embeddings.js';
import { DEFAULT_EMBEDDER_WEIGHT, type TextEmbedder } from './text-embedder.js';
import { _FIELDS, DEFAULT_FIELD_BOOSTS, type SearchField } from './tool-document.js';

/** Options of {@link ToolIndex}. */
export interface ToolIndexOptions {
  /** Per-field weights (BM25F boosts); see {@link DEFAULT_FIELD_BOOSTS}. */
  readonly fieldBoosts?: Partial<Record<SearchField, number>>;
  /** Multiplier added when the query's verb class matches the tool's (default 0.1). */
  readonly verbBoost?: number;
  /**
   * Multiplier taken off when the query asks for the opposite of what the tool does: it starts
   * with a verb that reads (`get`, `list`, …) and the tool changes (`write`, `update`, `delete`),
   * or the other way round ("save text into a file" against `read_text_file`), and names no verb
   * of another kind (default 0.5; 0 = off).
   */
  readonly verbConflict?: number;
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

/** The options of an index with their defaults filled in, checked. @internal */
export interface _IndexSettings {
  readonly boosts: Readonly<Record<SearchField, number>>;
  readonly verbBoost: number;
  readonly verbConflict: number;
  readonly subjectBoost: number;
  readonly k1: number;
  readonly b: number;
  readonly prefixMin: number;
  readonly verbTermWeight: number;
  readonly concepts: boolean;
  readonly vectorWeight: number;
  readonly queryCleanup: boolean;
  readonly agentJargon: boolean;
  readonly typoWeight: number;
  readonly serverWeight: number;
  readonly nameCoverage: number;
  readonly synonymFirst: number;
  readonly synonymOther: number;
  readonly embedder: Required<TextEmbedder> | null;
  readonly fusion: { readonly k: number; readonly fullWeight: number } | null;
  readonly ranker: LearnedRanker | null;
}

/** A numeric option: its name in errors, its value, and its allowed range. */
type _NumericOption = [name: string, value: unknown, min: number, max: number];

/**
 * Checks the options and fills in their defaults. Throws {@link SemanticError} `INVALID_ARGUMENT`
 * for a number out of range, an embedder without `embed` or a malformed ranker (in that order).
 * @internal
 */
export function _resolveOptions(options: ToolIndexOptions): _IndexSettings {
  const boosts = Object.freeze({ ...DEFAULT_FIELD_BOOSTS, ...(options.fieldBoosts ?? {}) });
  _checkRanges(_numericOptions(options, boosts));
  const embedder = options.embedder === undefined ? staticEmbedder : options.embedder;
  return {
    boosts,
    verbBoost: options.verbBoost ?? 0.1,
    verbConflict: options.verbConflict ?? 0.5,
    subjectBoost: options.subjectBoost ?? 0.1,
    prefixMin: options.prefixMinLength ?? 5,
    verbTermWeight: options.verbTermWeight ?? 0.75,
    concepts: options.concepts ?? true,
    vectorWeight:
      options.vectorWeight ?? (options.embedder === null ? VECTOR_WEIGHT_ALONE : VECTOR_WEIGHT_WITH_EMBEDDER),
    queryCleanup: options.queryCleanup ?? true,
    agentJargon: options.agentJargon ?? true,
    typoWeight: options.typoWeight ?? 0.5,
    serverWeight: options.serverWeight ?? 0.5,
    nameCoverage: options.nameCoverage ?? 0,
    synonymFirst: options.synonyms?.first ?? 0,
    synonymOther: options.synonyms?.other ?? 0,
    embedder: _checkEmbedder(embedder),
    fusion: _resolveFusion(options.clauseFusion ?? false),
    k1: options.bm25?.k1 ?? 2,
    b: options.bm25?.b ?? 0.75,
    ranker: _resolveRanker(options.ranker ?? embedder === staticEmbedder),
  };
}

/** Every numeric option (field boosts first) with its value or default and its allowed range. */
function _numericOptions(
  options: ToolIndexOptions,
  boosts: Readonly<Record<SearchField, number>>,
): _NumericOption[] {
  return [
    ..._FIELDS.map((f): _NumericOption => [`fieldBoosts.${f}`, boosts[f], 0, 100]),
    ['verbBoost', options.verbBoost ?? 0.1, 0, 10],
    ['verbConflict', options.verbConflict ?? 0.5, 0, 1],
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
        ] as _NumericOption[])
      : []),
  ];
}

/** Throws for the first option that is not a finite number within its range. */
function _checkRanges(numbers: readonly _NumericOption[]): void {
  for (const [name, value, min, max] of numbers) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
      throw new SemanticError(
        'INVALID_ARGUMENT',
        `${name}: expected a number from ${min} to ${max}, got ${JSON.stringify(value)}`,
      );
    }
  }
}

/** The embedder with its weight filled in (null = none); throws when it has no `embed` function. */
function _checkEmbedder(embedder: TextEmbedder | null): Required<TextEmbedder> | null {
  if (embedder !== null && typeof embedder?.embed !== 'function') {
    throw new SemanticError(
      'INVALID_ARGUMENT',
      `embedder: expected an object with an embed(text) function, got ${JSON.stringify(embedder)?.slice(0, 80)}`,
    );
  }
  return embedder === null
    ? null
    : { embed: embedder.embed, weight: embedder.weight ?? DEFAULT_EMBEDDER_WEIGHT };
}

/** Clause fusion's parameters (`true` = k 3, whole query ×2), or null when off. */
function _resolveFusion(
  fusion: NonNullable<ToolIndexOptions['clauseFusion']>,
): { readonly k: number; readonly fullWeight: number } | null {
  return fusion === false
    ? null
    : fusion === true
      ? { k: 3, fullWeight: 2 }
      : { k: fusion.k ?? 3, fullWeight: fusion.fullWeight ?? 2 };
}

/** The learned ranker (`true` = the default one), or null when off; checks one of your own. */
function _resolveRanker(ranker: boolean | LearnedRanker): LearnedRanker | null {
  return ranker === false ? null : ranker === true ? DEFAULT_RANKER : _checkRanker(ranker as LearnedRanker);
}
