/**
 * `xp.schema.describe` (docs/design.md §7, search): the Phase 1 discovery query — free-text intent
 * and/or `domain`, `data_subjects`, `intent_verbs` — answered with ranked kinds, relevance scores
 * and `use_when` excerpts. A pure function over a {@link ToolIndex} whose ids are schema kinds.
 * @module
 */
import { SemanticError } from './errors.js';
import type { ToolIndex } from './tool-index.js';

/** The payload of an `xp.schema.describe` request. */
export interface DescribeQuery {
  /** Free-text intent ("read the contents of a file"). */
  readonly intent?: string;
  /** Keep only schemas of this domain (`filesystem`). */
  readonly domain?: string;
  /** Subjects the agent works on (`["file"]`). */
  readonly data_subjects?: readonly string[];
  /** Verbs the agent wants to perform (`["read"]`). */
  readonly intent_verbs?: readonly string[];
  /** Most matches returned (default 10, at most 100). */
  readonly limit?: number;
}

/** One ranked match of an `xp.schema.describe` answer. */
export interface DescribeMatch {
  /** The schema kind (the index id). */
  readonly kind: string;
  /** Relevance from 0 to 1: the score relative to the best match, rounded to 4 decimals. */
  readonly relevance: number;
  /** The schema's `use_when` excerpt. */
  readonly use_when: string;
}

/** Default and maximum number of matches. */
export const DESCRIBE_DEFAULT_LIMIT = 10;
export const DESCRIBE_MAX_LIMIT = 100;

function _strings(name: string, value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new SemanticError(
      'INVALID_ARGUMENT',
      `${name}: expected an array of strings, got ${JSON.stringify(value)}`,
    );
  }
  return value as readonly string[];
}

/**
 * Answers an `xp.schema.describe` query over an index: ranks by the intent text, intent verbs and
 * data subjects (BM25F over name, annotations, description, parameters, with verb-class and
 * subject boosts), filtered by domain. With only a domain, lists that domain's schemas by kind
 * (relevance 1). Throws {@link SemanticError} `INVALID_ARGUMENT` on a malformed query.
 * @example
 * describeQuery(index, { intent: 'read a file', domain: 'filesystem', limit: 3 });
 * // [{ kind: 'com.acme.filesystem.read_file', relevance: 1, use_when: 'Agent needs to …' }, …]
 */
export function describeQuery(index: ToolIndex, query: DescribeQuery): DescribeMatch[] {
  if (query === null || typeof query !== 'object') {
    throw new SemanticError(
      'INVALID_ARGUMENT',
      `expected a describe query object, got ${JSON.stringify(query)}`,
    );
  }
  const intent = query.intent ?? '';
  if (typeof intent !== 'string') {
    throw new SemanticError('INVALID_ARGUMENT', `intent: expected a string, got ${JSON.stringify(intent)}`);
  }
  if (query.domain !== undefined && typeof query.domain !== 'string') {
    throw new SemanticError(
      'INVALID_ARGUMENT',
      `domain: expected a string, got ${JSON.stringify(query.domain)}`,
    );
  }
  const verbs = _strings('intent_verbs', query.intent_verbs);
  const subjects = _strings('data_subjects', query.data_subjects);
  const limit = query.limit ?? DESCRIBE_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > DESCRIBE_MAX_LIMIT) {
    throw new SemanticError(
      'INVALID_ARGUMENT',
      `limit: expected an integer from 1 to ${DESCRIBE_MAX_LIMIT}, got ${JSON.stringify(limit)}`,
    );
  }
  const hasText = intent.trim().length > 0 || verbs.length > 0 || subjects.length > 0;
  if (!hasText) {
    return index
      ._browse(query.domain, limit)
      .map((h) => ({ kind: h.id, relevance: 1, use_when: h.use_when }));
  }
  const hits = index._rank(intent, verbs, subjects, query.domain, limit);
  const best = hits[0]?.score ?? 0;
  return hits.map((h) => ({
    kind: h.id,
    relevance: best > 0 ? Math.round((h.score / best) * 1e4) / 1e4 : 0,
    use_when: h.use_when,
  }));
}
