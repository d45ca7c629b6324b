/**
 * The tool-name verb parser shared by capability inference (`@xprotocol/translate`, docs/design.md
 * §4) and the semantic annotations (docs/design.md §7): one reading of a name, one answer.
 * @module
 */
import { splitIdentifier } from './identifier.js';
import { type VerbClass, verbGroupOf, WEAK_VERBS } from './verbs.js';

/** What {@link parseToolName} reads from a tool name. */
export interface ParsedToolName {
  /** The verb of the name (lowercase base form as written), or `null` when the name has none. */
  readonly verb: string | null;
  /** The class of {@link ParsedToolName.verb} in the verb table, or `null`. */
  readonly verbClass: VerbClass | null;
  /** Index of the verb in {@link ParsedToolName.tokens}, or `-1`. */
  readonly verbIndex: number;
  /**
   * The tokens naming what the tool acts on: the words after the verb up to the first
   * preposition (`get_user_by_id` → `user`), else the words after that preposition
   * (`retrieve_from_aws_kb` → `aws`, `kb`), else the words before the verb (noun-first names:
   * `compute_vm_create` → `compute`, `vm`). Articles, quantifiers, conjunctions and a verb joined
   * by a conjunction are dropped (`create_or_update_file` → `file`). The last token is the head
   * noun.
   */
  readonly subjectTokens: readonly string[];
  /** Every token of the name, lowercase, in order ({@link splitIdentifier}). */
  readonly tokens: readonly string[];
}

/** Words that end a subject phrase: what follows qualifies it (`by_id`, `with_sizes`, `to_thread`). */
const PREPOSITIONS: ReadonlySet<string> = new Set([
  'by',
  'with',
  'without',
  'for',
  'from',
  'to',
  'in',
  'into',
  'on',
  'of',
  'at',
  'as',
  'via',
  'using',
  'per',
  'than',
]);

/** Conjunctions joining two verbs (`create_or_update_file`). */
const CONJUNCTIONS: ReadonlySet<string> = new Set(['and', 'or']);

/** Articles and quantifiers, never part of a subject (`read_multiple_files` → `files`). */
const FILLER: ReadonlySet<string> = new Set([
  'the',
  'a',
  'an',
  'if',
  'all',
  'any',
  'each',
  'every',
  'many',
  'multiple',
  'several',
  'some',
]);

function _isStrongVerb(token: string): boolean {
  return verbGroupOf(token) !== undefined && !WEAK_VERBS.has(token);
}

/**
 * Verbs that close resource-first names (`compute_vm_create`, `search_index_get`,
 * `get-actor-run-list`): when a name of three or more tokens ends with one of these, it is the
 * verb even if the first token is a verb too (there the first token names a service).
 */
const CLOSING_VERBS: ReadonlySet<string> = new Set([
  'get',
  'list',
  'create',
  'update',
  'delete',
  'set',
  'put',
  'show',
  'add',
  'remove',
]);

function _findVerb(tokens: readonly string[]): number {
  const n = tokens.length;
  const first = tokens[0];
  if (first === undefined) return -1;
  const last = tokens[n - 1]!;
  const lastIsVerb = n >= 3 && _isStrongVerb(last) && !CONJUNCTIONS.has(tokens[n - 2]!);
  if (_isStrongVerb(first)) {
    // 1. The usual place: a strong verb first (`read_file`, `getUserById`, `resolve-library-id`),
    //    unless a resource-first name closes with a CRUD verb (`search_index_get`).
    return lastIsVerb && CLOSING_VERBS.has(last) ? n - 1 : 0;
  }
  // 2. Noun-first names put the verb last (`pods_list`, `firecrawl_interact_stop`); otherwise the
  //    first strong verb anywhere (`slack_post_message`), also beating a weak first word
  //    (`monitor_metrics_query`, `deploy_app_logs_get`).
  if (lastIsVerb && verbGroupOf(first) === undefined) return n - 1;
  for (let i = 1; i < n; i++) if (_isStrongVerb(tokens[i]!)) return i;
  // 3. Only weak verbs: the first one (`take_screenshot`, `browser_snapshot`, `worker_deploy`).
  for (let i = 0; i < n; i++) if (verbGroupOf(tokens[i]!) !== undefined) return i;
  return -1;
}

function _phrase(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (PREPOSITIONS.has(t)) break;
    if (FILLER.has(t) || CONJUNCTIONS.has(t)) continue;
    // `create_or_update_file`: the verb after a conjunction is not part of the subject.
    if (i > 0 && CONJUNCTIONS.has(tokens[i - 1]!) && _isStrongVerb(t)) continue;
    out.push(t);
  }
  return out;
}

function _afterPreposition(tokens: readonly string[]): string[] {
  const at = tokens.findIndex((t) => PREPOSITIONS.has(t));
  return at < 0 ? [] : _phrase(tokens.slice(at + 1));
}

/**
 * Reads a tool name: its tokens, its verb wherever real servers put it, the verb's class and the
 * subject tokens. Pure and deterministic.
 *
 * Verb choice, first rule that matches: a strong verb in first position (but a name of three or
 * more tokens closing with a CRUD verb takes that one: `search_index_get`); the last token of a
 * noun-first name of three or more tokens when it is a strong verb; the first strong verb
 * anywhere; the first weak verb ({@link WEAK_VERBS}: words as often nouns, like `snapshot`,
 * `monitor`, `request`); else none.
 * @example
 * parseToolName('getUserById');
 * // { verb: 'get', verbClass: 'read', verbIndex: 0, subjectTokens: ['user'], tokens: ['get', 'user', 'by', 'id'] }
 * parseToolName('k8s.pods.list').verbClass; // 'list'
 * parseToolName('browser_snapshot').verb; // 'snapshot'
 */
export function parseToolName(name: string): ParsedToolName {
  const tokens = splitIdentifier(name);
  const verbIndex = _findVerb(tokens);
  const verb = verbIndex >= 0 ? tokens[verbIndex]! : null;
  const verbClass = verb === null ? null : (verbGroupOf(verb)?.verbClass ?? null);

  let subjectTokens: string[];
  if (verbIndex < 0) {
    subjectTokens = _phrase(tokens);
    if (subjectTokens.length === 0) subjectTokens = _afterPreposition(tokens);
  } else {
    const after = tokens.slice(verbIndex + 1);
    subjectTokens = _phrase(after);
    if (subjectTokens.length === 0) subjectTokens = _afterPreposition(after);
    if (subjectTokens.length === 0) {
      // Resource-first names: the words before the verb, minus a leading CRUD verb
      // (`get-actor-run-list` → `actor`, `run`).
      const before = tokens.slice(0, verbIndex);
      if (before.length > 1 && CLOSING_VERBS.has(before[0]!)) before.shift();
      subjectTokens = _phrase(before);
    }
  }
  return Object.freeze({
    verb,
    verbClass,
    verbIndex,
    subjectTokens: Object.freeze(subjectTokens),
    tokens: Object.freeze(tokens),
  });
}
