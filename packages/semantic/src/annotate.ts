/**
 * Auto-generated semantic annotations (docs/design.md §7, annotations): intent verbs, data
 * subjects, domain, related schemas and use / do-not-use sentences, derived deterministically from
 * the tool name, its description and its sibling tools in the same namespace.
 * @module
 */
import { _verbLemma } from './_lemma.js';
import { pluralize, singularize } from './inflect.js';
import { type ParsedToolName, parseToolName } from './parse-tool-name.js';
import { DATA_SUBJECT_NOUNS, descriptionQualityScore, GENERIC_NOUNS } from './quality.js';
import { STOP_WORDS } from './search-tokenizer.js';
import { type VerbClass, verbGroupOf } from './verbs.js';

/** The MCP tool fields annotation reads (a `tools/list` entry satisfies it). */
export interface ToolLike {
  /** The MCP tool name. */
  readonly name: string;
  /** The MCP tool description. */
  readonly description?: string | undefined;
  /** The MCP input schema (parameter names and descriptions are read by search, not here). */
  readonly inputSchema?: unknown;
}

/** The `semantic` field of a schema contract (docs/design.md §7). */
export interface SemanticAnnotations {
  /** The verb of the name first, then its group's intent vocabulary. */
  readonly intent_verbs: readonly string[];
  /** What the tool acts on, singular and plural (`file`, `files`). */
  readonly data_subjects: readonly string[];
  /** The last segment of the namespace (`com.acme.filesystem` → `filesystem`). */
  readonly domain: string;
  /** Kinds (`{namespace}.{tool}`) of siblings with complementary verbs on the same subject. */
  readonly related_schemas: readonly string[];
  /** When an agent should pick this tool. */
  readonly use_when: string;
  /** When it should not, naming the sibling to use instead where there is one. */
  readonly do_not_use_when: string;
  /** The description quality score of docs/design.md §7 ({@link descriptionQualityScore}). */
  readonly description_quality_score: number;
  /**
   * `true` when every field was generated; `false` once `schema_overrides` replaced any field
   * (the annotation is then partly human-authored, and says so).
   */
  readonly auto_generated: boolean;
}

/** Fields `schema_overrides.<tool>.semantic` may replace. */
export type SemanticOverrides = Partial<
  Omit<SemanticAnnotations, 'auto_generated' | 'description_quality_score'>
>;

/**
 * Head nouns that only qualify the real subject (`get_file_info` is about a `file`): the word
 * before them becomes the head.
 */
const QUALIFIER_HEADS: ReadonlySet<string> = new Set([
  'content',
  'contents',
  'data',
  'detail',
  'details',
  'id',
  'ids',
  'info',
  'information',
  'metadata',
  'stat',
  'stats',
  'status',
  'summary',
]);

/** Index of the head noun in subject tokens, or -1. */
function _headIndex(tokens: readonly string[]): number {
  let i = tokens.length - 1;
  while (i > 0 && QUALIFIER_HEADS.has(tokens[i]!)) i--;
  return i;
}

/** Most related schemas listed per tool. */
export const MAX_RELATED_SCHEMAS = 8;

const USE_WHEN_MAX = 200;

function _kind(namespace: string, tool: string): string {
  const segment = tool.replace(/[./]/g, '_');
  return namespace.length > 0 ? `${namespace}.${segment}` : segment;
}

/** `com.acme.filesystem` → `filesystem`; `''` for an empty namespace. */
export function domainOf(namespace: string): string {
  const parts = namespace.split('.').filter((p) => p.length > 0);
  return parts[parts.length - 1] ?? '';
}

function _firstSentence(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  const match = /^(.+?[.!?])(?:\s|$)/.exec(trimmed);
  return (match ? match[1]! : trimmed).replace(/[.!?]+$/, '');
}

function _clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/** The verb of a tool: from its name, else the first verb of its description. */
function _verbOf(parsed: ParsedToolName, description: string): { verb: string; verbClass: VerbClass } | null {
  if (parsed.verb !== null && parsed.verbClass !== null)
    return { verb: parsed.verb, verbClass: parsed.verbClass };
  for (const match of description.matchAll(/[\p{L}]+/gu)) {
    const lemma = _verbLemma(match[0]);
    if (lemma !== null) return { verb: lemma, verbClass: verbGroupOf(lemma)!.verbClass };
  }
  return null;
}

interface _Profile {
  readonly name: string;
  readonly namespace: string;
  readonly kind: string;
  readonly parsed: ParsedToolName;
  readonly verb: string | null;
  readonly verbClass: VerbClass | null;
  /** Singular subject words. */
  readonly subjects: ReadonlySet<string>;
  /** Singular head noun, or `null`. */
  readonly head: string | null;
  readonly description: string;
  /** Singular words of the description. */
  readonly descriptionWords: ReadonlySet<string>;
}

/**
 * Profiles already computed, per tool object: `annotateTool` is called once per tool with the same
 * siblings, so each sibling would otherwise be re-read n times. An entry is reused only while the
 * tool's name and description are unchanged (a mutated tool object is read again).
 */
const _PROFILES = new WeakMap<object, Map<string, _Profile>>();

function _profile(tool: ToolLike, namespace: string, withWords = true): _Profile {
  if (!withWords || typeof tool !== 'object' || tool === null)
    return _readProfile(tool, namespace, withWords);
  let byNamespace = _PROFILES.get(tool);
  const cached = byNamespace?.get(namespace);
  const description = typeof tool.description === 'string' ? tool.description : '';
  if (cached !== undefined && cached.name === tool.name && cached.description === description) return cached;
  const fresh = _readProfile(tool, namespace, true);
  if (byNamespace === undefined) {
    byNamespace = new Map();
    _PROFILES.set(tool, byNamespace);
  }
  byNamespace.set(namespace, fresh);
  return fresh;
}

function _readProfile(tool: ToolLike, namespace: string, withWords: boolean): _Profile {
  const parsed = parseToolName(tool.name);
  const description = typeof tool.description === 'string' ? tool.description : '';
  const verb = _verbOf(parsed, description);
  const subjects = new Set(parsed.subjectTokens.map(singularize));
  const last = parsed.subjectTokens[_headIndex(parsed.subjectTokens)];
  const words = new Set<string>();
  if (withWords) {
    for (const m of description.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) words.add(singularize(m[0]));
  }
  return {
    name: tool.name,
    namespace,
    kind: _kind(namespace, tool.name),
    parsed,
    verb: verb?.verb ?? null,
    verbClass: verb?.verbClass ?? null,
    subjects,
    head: last === undefined ? null : singularize(last),
    description,
    descriptionWords: words,
  };
}

function _sharesSubject(a: _Profile, b: _Profile): boolean {
  for (const s of a.subjects) if (b.subjects.has(s)) return true;
  return false;
}

/**
 * Nouns that name containers: a list tool over one of these is related to the readers of what it
 * holds (`list_directory` for `read_file`) even when no description says so.
 */
export const CONTAINER_NOUNS: ReadonlySet<string> = new Set([
  'board',
  'bucket',
  'catalog',
  'channel',
  'collection',
  'container',
  'database',
  'directory',
  'drive',
  'folder',
  'index',
  'inbox',
  'library',
  'namespace',
  'project',
  'repository',
  'space',
  'table',
  'workspace',
]);

function _isContainerLister(p: _Profile): boolean {
  return p.verbClass === 'list' && p.head !== null && CONTAINER_NOUNS.has(p.head);
}

const READS: ReadonlySet<VerbClass | null> = new Set(['read']);
const LISTS: ReadonlySet<VerbClass | null> = new Set(['list']);

/**
 * Related siblings, strongest first: same subject with a different verb (`write_file` for
 * `read_file`); then the list/search siblings whose description mentions this tool's subject
 * (`list_directory`: "files and directories") and, for a list tool, the readers of what it lists;
 * then, for a reader, the list tools over containers ({@link CONTAINER_NOUNS}).
 * Ties by name. Near-duplicates (same verb, same head) are alternatives, not relations.
 */
function _related(self: _Profile, siblings: readonly _Profile[]): _Profile[] {
  const scored: { p: _Profile; rank: number }[] = [];
  for (const other of siblings) {
    if (other.verb === null || self.verb === null) continue;
    const sameSubject = _sharesSubject(self, other);
    if (sameSubject && other.verb !== self.verb) {
      scored.push({ p: other, rank: self.head !== null && other.head === self.head ? 0 : 1 });
      continue;
    }
    if (sameSubject) continue;
    const mentionsMine =
      self.head !== null && (other.descriptionWords.has(self.head) || other.subjects.has(self.head));
    const mentionsTheirs = other.head !== null && self.descriptionWords.has(other.head);
    if (READS.has(self.verbClass) && LISTS.has(other.verbClass) && mentionsMine)
      scored.push({ p: other, rank: 2 });
    else if (READS.has(self.verbClass) && _isContainerLister(other)) scored.push({ p: other, rank: 3 });
    else if (_isContainerLister(self) && READS.has(other.verbClass)) scored.push({ p: other, rank: 3 });
    else if (LISTS.has(self.verbClass) && READS.has(other.verbClass) && mentionsTheirs)
      scored.push({ p: other, rank: 2 });
  }
  scored.sort((a, b) => a.rank - b.rank || (a.p.name < b.p.name ? -1 : a.p.name > b.p.name ? 1 : 0));
  return scored.slice(0, MAX_RELATED_SCHEMAS).map((s) => s.p);
}

function _subjectPhrase(p: _Profile, plural = false): string {
  const tokens = p.parsed.subjectTokens.slice(0, _headIndex(p.parsed.subjectTokens) + 1);
  if (tokens.length === 0) return plural ? 'items' : 'item';
  const last = tokens.length - 1;
  tokens[last] = plural ? pluralize(singularize(tokens[last]!)) : singularize(tokens[last]!);
  return tokens.join(' ');
}

/** `a file`, `an issue`, `directories` (list tools act on many). */
function _object(p: _Profile): string {
  if (p.verbClass === 'list') return _subjectPhrase(p, true);
  const phrase = _subjectPhrase(p);
  return `${/^[aeiou]/.test(phrase) ? 'an' : 'a'} ${phrase}`;
}

function _useWhen(p: _Profile): string {
  const sentence = _firstSentence(p.description);
  if (sentence.length > 0) {
    const words = sentence.split(' ');
    // "Reads …" → "read …"; "Recursively searches …" → "recursively search …".
    const at = /ly$/i.test(words[0] ?? '') && words.length > 1 ? 1 : 0;
    const lemma = _verbLemma(words[at]!);
    if (lemma !== null) {
      const lead = at === 1 ? [words[0]!.toLowerCase()] : [];
      return _clip(`Agent needs to ${[...lead, lemma, ...words.slice(at + 1)].join(' ')}`, USE_WHEN_MAX);
    }
    if (p.verb !== null) {
      return _clip(`Agent needs to ${p.verb} ${_object(p)}: ${sentence}`, USE_WHEN_MAX);
    }
    return _clip(`Agent needs ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}`, USE_WHEN_MAX);
  }
  if (p.verb !== null) return `Agent needs to ${p.verb} ${_object(p)}`;
  return `Agent needs the ${p.parsed.tokens.join(' ')} tool`;
}

const DEPRECATED_USE = /\bdeprecated\b[^.]*?\buse\s+[`'"]?([\w./-]+)[`'"]?\s+instead\b/i;

function _doNotUseWhen(self: _Profile, siblings: readonly _Profile[]): string {
  const deprecated = DEPRECATED_USE.exec(self.description);
  if (deprecated) {
    const target = siblings.find((s) => s.name === deprecated[1]);
    if (target) return `Always: this tool is deprecated — use ${target.kind} instead`;
  }
  const byName = (a: _Profile, b: _Profile) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const subject = _subjectPhrase(self);
  const subjects = _subjectPhrase(self, true);
  const pick = (pred: (o: _Profile) => boolean) => siblings.filter(pred).sort(byName)[0];
  switch (self.verbClass) {
    case 'read': {
      const lister =
        pick((o) => o.verbClass === 'list' && _sharesSubject(self, o)) ??
        pick((o) => o.verbClass === 'list' && self.head !== null && o.descriptionWords.has(self.head)) ??
        pick(_isContainerLister);
      if (lister) return `Agent wants to list or find available ${subjects} — use ${lister.kind} instead`;
      return `Agent wants to change or delete a ${subject} — this tool only reads`;
    }
    case 'list': {
      const reader = pick((o) => o.verbClass === 'read' && _sharesSubject(self, o));
      if (reader) return `Agent already knows which ${subject} it wants — use ${reader.kind} instead`;
      return `Agent already knows the exact ${subject} it wants or needs to change it`;
    }
    case 'write': {
      const updater = pick((o) => o.verbClass === 'update' && _sharesSubject(self, o));
      if (updater) return `Agent wants to change an existing ${subject} — use ${updater.kind} instead`;
      const reader = pick((o) => o.verbClass === 'read' && _sharesSubject(self, o));
      if (reader) return `Agent only wants to look at a ${subject} — use ${reader.kind} instead`;
      return `Agent only wants to look at ${subjects}; this tool writes`;
    }
    case 'update': {
      const creator = pick((o) => o.verbClass === 'write' && _sharesSubject(self, o));
      if (creator) return `Agent wants to create a new ${subject} — use ${creator.kind} instead`;
      return `Agent only wants to look at a ${subject}; this tool changes it`;
    }
    case 'delete': {
      const updater = pick(
        (o) => (o.verbClass === 'update' || o.verbClass === 'write') && _sharesSubject(self, o),
      );
      if (updater) return `Agent wants to keep the ${subject} and change it — use ${updater.kind} instead`;
      return `Agent wants to keep the ${subject}; this tool deletes it`;
    }
    case 'execute':
    case 'admin': {
      const reader = pick(
        (o) => (o.verbClass === 'read' || o.verbClass === 'list') && _sharesSubject(self, o),
      );
      if (reader) return `Agent only wants to inspect the ${subject} — use ${reader.kind} instead`;
      return `Agent only wants to inspect state without side effects`;
    }
    default:
      return '';
  }
}

/** A subject from the description when the name has none (`deploy`, `search`, `query`). */
function _descriptionSubject(p: _Profile): string | null {
  const words = [...p.description.toLowerCase().matchAll(/[\p{L}]+/gu)].map((m) => m[0]);
  const candidates = words.map((w) => singularize(w)).filter((w) => w.length > 2 && !GENERIC_NOUNS.has(w));
  const known = candidates.find((w) => DATA_SUBJECT_NOUNS.has(w));
  if (known !== undefined) return known;
  return candidates.find((w) => !STOP_WORDS.has(w) && _verbLemma(w) === null) ?? null;
}

function _dataSubjects(p: _Profile): string[] {
  const tokens = p.parsed.subjectTokens.slice(0, _headIndex(p.parsed.subjectTokens) + 1);
  const out: string[] = [];
  const push = (s: string) => {
    if (s.length > 0 && !out.includes(s)) out.push(s);
  };
  const head =
    tokens[tokens.length - 1] ?? _descriptionSubject(p) ?? p.parsed.tokens[p.parsed.tokens.length - 1];
  if (head === undefined) return out;
  const singular = singularize(head);
  push(singular);
  push(pluralize(singular));
  if (tokens.length >= 2) {
    const stem = tokens.slice(0, -1).join(' ');
    push(`${stem} ${singular}`);
    push(`${stem} ${pluralize(singular)}`);
  }
  return out;
}

/**
 * Generates the semantic annotations of one tool (docs/design.md §7). `siblings` are the other
 * tools of the same source (the tool itself, if present, is skipped by name); `namespace` is the
 * source's XProtocol namespace. `overrides` (`schema_overrides.<tool>.semantic`) replace generated
 * fields, and then `auto_generated` is `false`. Deterministic: the order of `siblings` does not
 * matter.
 * @example
 * const tools = [{ name: 'read_file' }, { name: 'write_file' }, { name: 'list_directory' }];
 * annotateTool(tools[0], tools, 'com.acme.filesystem').related_schemas;
 * // ['com.acme.filesystem.write_file', 'com.acme.filesystem.list_directory']
 */
export function annotateTool(
  tool: ToolLike,
  siblings: readonly ToolLike[],
  namespace: string,
  overrides?: SemanticOverrides,
): SemanticAnnotations {
  const others = siblings.filter((s) => s.name !== tool.name).map((s) => _profile(s, namespace));
  return _annotate(_profile(tool, namespace), others, overrides);
}

/** The search-relevant annotation fields, without siblings or the quality score. @internal */
export function _searchAnnotations(
  tool: ToolLike,
  namespace: string,
): Pick<SemanticAnnotations, 'intent_verbs' | 'data_subjects' | 'domain' | 'use_when'> {
  const self = _profile(tool, namespace, false);
  return {
    intent_verbs: _intentVerbs(self),
    data_subjects: _dataSubjects(self),
    domain: domainOf(namespace),
    use_when: _useWhen(self),
  };
}

function _intentVerbs(self: _Profile): string[] {
  const intent: string[] = [];
  if (self.verb !== null) {
    intent.push(self.verb);
    for (const v of verbGroupOf(self.verb)?.intentVerbs ?? []) if (!intent.includes(v)) intent.push(v);
  }
  return intent;
}

/**
 * Annotates every tool of one source at once (each tool's siblings are the others); the same
 * result as {@link annotateTool} per tool, in input order, with each tool read once.
 * `overrides` maps tool names to their `schema_overrides.<tool>.semantic`.
 */
export function annotateTools(
  tools: readonly ToolLike[],
  namespace: string,
  overrides?: Readonly<Record<string, SemanticOverrides | undefined>>,
): SemanticAnnotations[] {
  const profiles = tools.map((t) => _profile(t, namespace));
  return profiles.map((self) =>
    _annotate(
      self,
      profiles.filter((p) => p.name !== self.name),
      overrides !== undefined && Object.hasOwn(overrides, self.name) ? overrides[self.name] : undefined,
    ),
  );
}

function _annotate(
  self: _Profile,
  others: readonly _Profile[],
  overrides: SemanticOverrides | undefined,
): SemanticAnnotations {
  const generated: SemanticAnnotations = {
    intent_verbs: _intentVerbs(self),
    data_subjects: _dataSubjects(self),
    domain: domainOf(self.namespace),
    related_schemas: _related(self, others).map((p) => p.kind),
    use_when: _useWhen(self),
    do_not_use_when: _doNotUseWhen(self, others),
    description_quality_score: descriptionQualityScore(self.description, { name: self.name }).score,
    auto_generated: true,
  };
  if (overrides === undefined) return generated;
  const replaced = Object.entries(overrides).filter(([, v]) => v !== undefined);
  return {
    ...generated,
    ...Object.fromEntries(replaced.map(([k, v]) => [k, Array.isArray(v) ? [...v] : v])),
    auto_generated: replaced.length === 0,
  };
}
