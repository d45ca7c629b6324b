/**
 * `description_quality_score` (docs/design.md §7, annotations and description quality): five
 * indicators worth 0.2 each, computed in integer fifths so that every implementation reading the
 * published word lists (README "Description quality") gets the same number, and `findings` that say
 * how to fix each failure.
 * @module
 */
import { _verbLemma } from './_lemma.js';
import { SemanticError } from './errors.js';
import { pluralize, singularize } from './inflect.js';
import { parseToolName } from './parse-tool-name.js';
import { WEAK_VERBS } from './verbs.js';

/** The five indicators of docs/design.md §7, in table order. */
export type QualityIndicator =
  | 'length'
  | 'action_verb'
  | 'data_subject'
  | 'usage_guidance'
  | 'no_vague_phrases';

/** The indicators in the order of the seed's table. */
export const QUALITY_INDICATORS: readonly QualityIndicator[] = Object.freeze([
  'length',
  'action_verb',
  'data_subject',
  'usage_guidance',
  'no_vague_phrases',
]);

/** Minimum description length (characters, after trimming) for the `length` indicator. */
export const MIN_DESCRIPTION_LENGTH = 50;

/** One failed indicator: what failed and how to fix it. */
export interface QualityFinding {
  /** The indicator that failed. */
  readonly indicator: QualityIndicator;
  /** What is wrong, with the measured value where there is one. */
  readonly message: string;
  /** How to fix it. */
  readonly fix: string;
}

/** The result of {@link descriptionQualityScore}. */
export interface QualityScore {
  /** Passed indicators ÷ 5: one of 0, 0.2, 0.4, 0.6, 0.8, 1 exactly. */
  readonly score: number;
  /** Passed indicators (0–5): the score in integer fifths. */
  readonly fifths: number;
  /** Which indicators passed. */
  readonly indicators: Readonly<Record<QualityIndicator, boolean>>;
  /** One entry per failed indicator, in table order. */
  readonly findings: readonly QualityFinding[];
}

/** Optional context for {@link descriptionQualityScore}. */
export interface QualityContext {
  /** The tool name: its subject words (`read_file` → `file`) count as data-subject nouns. */
  readonly name?: string;
}

/**
 * Nouns too generic to name what a tool works on; they never satisfy `data_subject`, even when
 * the tool name uses them (`handle_thing`).
 */
export const GENERIC_NOUNS: ReadonlySet<string> = new Set([
  'anything',
  'data',
  'entity',
  'everything',
  'info',
  'information',
  'item',
  'object',
  'operation',
  'something',
  'stuff',
  'thing',
  'tool',
  'value',
]);

/**
 * Data-subject nouns common in tool catalogs (singular; plurals count too). A description
 * satisfies `data_subject` with one of these or with a subject word of the tool's own name.
 */
export const DATA_SUBJECT_NOUNS: ReadonlySet<string> = new Set(
  (
    'account address agent alert answer api app application archive article artifact asset attachment ' +
    'audit balance blob block board book bookmark branch browser bucket budget build cache calendar call ' +
    'campaign card cart catalog certificate change channel chart chat check checkout city class cluster ' +
    'code column command comment commit company config configuration connection console contact container ' +
    'content contract conversation cookie coordinate country course credential cron currency customer ' +
    'dashboard database dataset date deal deployment device diagram diff dimension directory disk document ' +
    'domain draft element email embedding employee endpoint environment error event expense extension ' +
    'feed field file filter folder font form function gist graph group header heap host hotel image ' +
    'incident index input instance invoice issue job key keyword label language layer lead library ' +
    'license link list location lock log map markdown media meeting memory menu message metric model ' +
    'module namespace network node note notebook notification order organization output package page ' +
    'paper parameter password path payment pdf permission photo pipeline place playlist plugin podcast ' +
    'policy pool port post price process product profile project prompt property pull query queue quota ' +
    'reaction receipt recipe record region release reminder replica report repository request resource ' +
    'response result review role route row rule run schedule schema scope screenshot script secret ' +
    'section segment sequence server service session setting sheet shipment snapshot song source ' +
    'space spreadsheet stack stage statement status stock storage stream subnet subscription summary ' +
    'table tag task team template test text thread ticket timezone token topic trace track transaction ' +
    'transcript tree trip tweet url usage user variable version video view volume webhook website ' +
    'weather widget wiki window workflow workspace zone'
  ).split(/\s+/),
);

/**
 * "When to use" guidance: a description passes `usage_guidance` when it matches one of these
 * (case-insensitive, on word boundaries).
 */
export const USAGE_GUIDANCE_PATTERNS: readonly RegExp[] = Object.freeze([
  /\buse (?:this|it|when|for|to|only|instead)\b/i,
  /\b(?:do not|don't|never) use\b/i,
  /\buse [\w.-]+ instead\b/i,
  /\busef?ul (?:for|when|to)\b/i,
  /\b(?:ideal|best|intended|designed|meant|recommended|suitable) (?:for|when|to)\b/i,
  /\bwhen (?:you|the user|the agent|an agent|a user|the model|needed|needing)\b/i,
  /\bif (?:you|the user|the agent|an agent|a user) (?:need|want|wish|ha(?:s|ve))\b/i,
  /\bprefer(?:red)? (?:over|to|this|when)\b/i,
  /\binstead of\b/i,
  /\bfor example\b|\be\.g\.|\bexample:/i,
  /\bshould (?:be used|use|only be)\b/i,
  /\bcall (?:this|it) (?:when|before|after|to|first)\b/i,
]);

/**
 * Vague filler: a description fails `no_vague_phrases` when it matches one of these (docs/design.md
 * §7: "does something", "handles", "manages"), case-insensitive, on word boundaries.
 */
export const VAGUE_PHRASE_PATTERNS: readonly RegExp[] = Object.freeze([
  /\b(?:does|do|doing) (?:something|stuff|things|anything)\b/i,
  /\bhandles\b/i,
  /\bmanages\b/i,
  /\bdeals with\b/i,
  /\b(?:various|some|certain|misc(?:ellaneous)?) (?:things|stuff|operations|tasks|actions)\b/i,
  /\bstuff\b/i,
  /\bthe thing\b/i,
  /\band (?:more|so on)\b/i,
  /\betc\b\.?/i,
  /\bgeneral[- ]purpose\b/i,
  /\b(?:helper|utility) (?:function|tool|method)\b/i,
  /\bTODO\b|\bTBD\b|\bplaceholder\b|\blorem ipsum\b/i,
]);

const WORDS = /[\p{L}][\p{L}'’-]*/gu;
const SENTENCE_START = /(?:^|[.!?:;]\s+|\n\s*)([\p{L}]+)/gu;

function _words(text: string): string[] {
  return [...text.matchAll(WORDS)].map((m) => m[0].toLowerCase().replace(/['’]s$/u, ''));
}

function _hasActionVerb(text: string): boolean {
  for (const word of _words(text)) {
    const lemma = _verbLemma(word);
    if (lemma !== null && !WEAK_VERBS.has(lemma)) return true;
  }
  // Weak verbs (`take`, `monitor`, `handle`) count where a verb stands: opening a sentence.
  for (const match of text.matchAll(SENTENCE_START)) {
    if (_verbLemma(match[1]!) !== null) return true;
  }
  return false;
}

function _hasDataSubject(text: string, context: QualityContext | undefined): boolean {
  const subjects = new Set<string>();
  if (context?.name !== undefined) {
    for (const t of parseToolName(context.name).subjectTokens) {
      const s = singularize(t);
      if (t.length > 1 && !GENERIC_NOUNS.has(s)) subjects.add(s);
    }
  }
  for (const word of _words(text)) {
    for (const part of word.split(/[-'’]/)) {
      const s = singularize(part);
      if (GENERIC_NOUNS.has(s)) continue;
      if (DATA_SUBJECT_NOUNS.has(s) || subjects.has(s) || subjects.has(pluralize(s))) return true;
    }
  }
  return false;
}

function _vagueMatch(text: string): string | null {
  for (const p of VAGUE_PHRASE_PATTERNS) {
    const m = p.exec(text);
    if (m) return m[0];
  }
  return null;
}

const FINDINGS: Readonly<
  Record<QualityIndicator, (description: string) => Omit<QualityFinding, 'indicator'>>
> = {
  length: (d) => ({
    message: `description is ${d.length} characters; at least ${MIN_DESCRIPTION_LENGTH} expected`,
    fix: 'Say what the tool does, to what, and what it returns, in one or two full sentences.',
  }),
  action_verb: () => ({
    message: 'no action verb (read, list, create, update, delete, run, …)',
    fix: 'Start with the operation the tool performs, e.g. "Reads …", "Lists …", "Creates …".',
  }),
  data_subject: () => ({
    message: 'no data-subject noun naming what the tool works on',
    fix: 'Name the object the tool acts on (file, issue, message, user, …), not "data" or "thing".',
  }),
  usage_guidance: () => ({
    message: 'no "when to use" guidance',
    fix: 'Add when to use it (and when not), e.g. "Use this when … ; to … use <other tool> instead."',
  }),
  no_vague_phrases: (d) => ({
    message:
      d.length === 0
        ? 'no description, so nothing concrete'
        : `vague filler phrase "${_vagueMatch(d) ?? ''}" (like "handles", "manages", "does something")`,
    fix: 'Replace the filler with the concrete operation and its effect.',
  }),
};

/**
 * Scores a tool description by the five indicators of docs/design.md §7 (length ≥ 50 characters, an
 * action verb, a data-subject noun, "when to use" guidance, no vague filler), 0.2 each. An empty
 * or whitespace-only description scores 0 with every indicator failed. Scores are computed in
 * integer fifths, so they are exactly `0`, `0.2`, `0.4`, `0.6`, `0.8` or `1`.
 * @example
 * descriptionQualityScore('Handles the thing').score; // 0.2 (only the action verb)
 */
export function descriptionQualityScore(description: string, context?: QualityContext): QualityScore {
  const text = (description ?? '').trim();
  const indicators: Record<QualityIndicator, boolean> = {
    length: text.length >= MIN_DESCRIPTION_LENGTH,
    action_verb: text.length > 0 && _hasActionVerb(text),
    data_subject: text.length > 0 && _hasDataSubject(text, context),
    usage_guidance: text.length > 0 && USAGE_GUIDANCE_PATTERNS.some((p) => p.test(text)),
    no_vague_phrases: text.length > 0 && _vagueMatch(text) === null,
  };
  const findings: QualityFinding[] = [];
  let fifths = 0;
  for (const indicator of QUALITY_INDICATORS) {
    if (indicators[indicator]) fifths++;
    else findings.push({ indicator, ...FINDINGS[indicator](text) });
  }
  return Object.freeze({
    score: fifths / 5,
    fifths,
    indicators: Object.freeze(indicators),
    findings: Object.freeze(findings),
  });
}

/** Per-source thresholds (docs/design.md §7): `description_quality_threshold`, `description_quality_floor`. */
export interface QualityThresholds {
  /** Warn below this score (default 0.40). */
  readonly description_quality_threshold?: number;
  /** Refuse publication below this score (default 0.20). */
  readonly description_quality_floor?: number;
}

/** Default warn threshold of docs/design.md §7. */
export const DEFAULT_QUALITY_THRESHOLD = 0.4;
/** Default publication floor of docs/design.md §7. */
export const DEFAULT_QUALITY_FLOOR = 0.2;

/** What a score means under a source's thresholds. */
export type QualityVerdict = 'ok' | 'warn' | 'reject';

const EPSILON = 1e-9;

function _thresholds(thresholds: QualityThresholds | undefined): { threshold: number; floor: number } {
  const threshold = thresholds?.description_quality_threshold ?? DEFAULT_QUALITY_THRESHOLD;
  const floor = thresholds?.description_quality_floor ?? DEFAULT_QUALITY_FLOOR;
  for (const [name, value] of [
    ['description_quality_threshold', threshold],
    ['description_quality_floor', floor],
  ] as const) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
      throw new SemanticError(
        'INVALID_THRESHOLDS',
        `${name}: expected a number from 0 to 1, got ${String(value)}`,
      );
    }
  }
  if (floor > threshold + EPSILON) {
    throw new SemanticError(
      'INVALID_THRESHOLDS',
      `description_quality_floor (${floor}) must not exceed description_quality_threshold (${threshold})`,
    );
  }
  return { threshold, floor };
}

/**
 * Classifies a score against a source's thresholds: `reject` below the floor (publication
 * refused), `warn` below the threshold (logged and listed in `low_quality_schemas`), else `ok`.
 * A score equal to a bound is not below it (`0.2` with the default floor is `warn`, not `reject`).
 * @example
 * classifyQualityScore(0.2); // 'warn'
 * classifyQualityScore(0); // 'reject'
 */
export function classifyQualityScore(score: number, thresholds?: QualityThresholds): QualityVerdict {
  const { threshold, floor } = _thresholds(thresholds);
  if (score < floor - EPSILON) return 'reject';
  if (score < threshold - EPSILON) return 'warn';
  return 'ok';
}

/** One entry of `low_quality_schemas` in `xp.endpoint.announce` (docs/design.md §7, description quality). */
export interface LowQualitySchema {
  /** The schema kind, `{namespace}.{tool}`. */
  readonly kind: string;
  /** Its score. */
  readonly description_quality_score: number;
  /** Why it is flagged, from the failed indicators. */
  readonly issue: string;
}

/**
 * Builds one `low_quality_schemas` entry from a score: the issue names every failed indicator.
 * @example
 * lowQualitySchemaEntry('com.acme.filesystem.handle_thing', descriptionQualityScore('Handles the thing'));
 * // { kind, description_quality_score: 0.2, issue: 'Description too vague for reliable agent discovery: …' }
 */
export function lowQualitySchemaEntry(kind: string, quality: QualityScore): LowQualitySchema {
  const reasons = quality.findings.map((f) => f.message);
  const issue =
    reasons.length === 0
      ? 'Description below the quality threshold'
      : `Description too vague for reliable agent discovery: ${reasons.join('; ')}`;
  return { kind, description_quality_score: quality.score, issue };
}

/**
 * The `low_quality_schemas` list of an announce: every schema scoring below the warn threshold
 * (rejected ones included: the announce says why they are missing), sorted by kind.
 */
export function lowQualitySchemas(
  schemas: ReadonlyArray<{ readonly kind: string; readonly quality: QualityScore }>,
  thresholds?: QualityThresholds,
): LowQualitySchema[] {
  return schemas
    .filter((s) => classifyQualityScore(s.quality.score, thresholds) !== 'ok')
    .map((s) => lowQualitySchemaEntry(s.kind, s.quality))
    .sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}
