/**
 * The document model of tool search: what a tool document is, the fields of the index and their
 * default weights, and what the index derives from a document — each field's text and search
 * terms (the concept field from the others), the verb class and data subjects the boosts compare,
 * and the name's own terms.
 * @module
 */
import { _searchAnnotations, type SemanticAnnotations } from './annotate.js';
import { conceptWeights } from './concepts.js';
import { splitIdentifier } from './identifier.js';
import { singularize } from './inflect.js';
import { parseToolName } from './parse-tool-name.js';
import { tokenizeForSearch } from './search-tokenizer.js';
import { type VerbClass, verbGroupOf } from './verbs.js';

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

/** The fields in index order: term-frequency rows and field lengths follow it. @internal */
export const _FIELDS: readonly SearchField[] = [
  'name',
  'annotations',
  'description',
  'params',
  'namespace',
  'server',
  'instructions',
  'concepts',
];

/** @internal */
export const _FIELD_COUNT = _FIELDS.length;

/** The word fields (every field but concepts, which is last) the ranker sees one by one. @internal */
export const _LEX_FIELDS = _FIELDS.length - 1;

/** The annotations search reads (generated, with the document's own `semantic` on top). @internal */
export type _SearchSemantic = Pick<
  SemanticAnnotations,
  'intent_verbs' | 'data_subjects' | 'domain' | 'use_when'
>;

/** What the index derives from one document. @internal */
export interface _AnalyzedDocument {
  readonly namespace: string;
  readonly semantic: _SearchSemantic;
  /** The name's verb class, else that of the first intent verb. */
  readonly verbClass: VerbClass | null;
  /** The singular words of the data subjects. */
  readonly subjects: ReadonlySet<string>;
  /** Per term, its frequency in each field, in {@link _FIELDS} order (first-seen term order). */
  readonly termTf: ReadonlyMap<string, readonly number[]>;
  /** Field lengths in terms, in {@link _FIELDS} order. */
  readonly len: Float64Array;
  /** Distinct search terms of the name's words (not the compound, not the server's words), sorted. */
  readonly nameTerms: readonly string[];
}

/**
 * Analyses a document for the index: its annotations, verb class, subjects, per-field terms
 * (with the concept field when `concepts` is on) and name terms. @internal
 */
export function _analyzeDocument(doc: ToolDocument, concepts: boolean): _AnalyzedDocument {
  const namespace = doc.namespace ?? '';
  const semantic = { ..._searchAnnotations(doc, namespace), ...(doc.semantic ?? {}) };
  const { termTf, len } = _fieldTerms(_fieldTexts(doc, semantic, namespace), concepts);
  return {
    namespace,
    semantic,
    verbClass: _verbClassOf(doc.name, semantic),
    subjects: _subjectWords(semantic),
    termTf,
    len,
    nameTerms: _nameTerms(doc.name, `${namespace} ${doc.server?.name ?? ''} ${doc.server?.title ?? ''}`),
  };
}

/** The verb class of a tool name, or else of its first intent verb. */
function _verbClassOf(name: string, semantic: _SearchSemantic): VerbClass | null {
  return (
    parseToolName(name).verbClass ??
    (semantic.intent_verbs[0] ? (verbGroupOf(semantic.intent_verbs[0])?.verbClass ?? null) : null)
  );
}

/** The singular words of a tool's data subjects (what the subject boost compares). */
function _subjectWords(semantic: _SearchSemantic): Set<string> {
  const subjects = new Set<string>();
  for (const s of semantic.data_subjects) for (const w of s.split(' ')) subjects.add(singularize(w));
  return subjects;
}

/** The text of every word field (all but concepts, which are derived from the terms). */
function _fieldTexts(
  doc: ToolDocument,
  semantic: _SearchSemantic,
  namespace: string,
): Record<Exclude<SearchField, 'concepts'>, string> {
  return {
    name: doc.title ? `${doc.name} ${doc.title}` : doc.name,
    annotations: _uniqueWords([...semantic.intent_verbs, ...semantic.data_subjects]),
    description: doc.description ?? '',
    params: _paramText(doc.inputSchema).join(' '),
    namespace,
    server: [doc.server?.name, doc.server?.title, doc.server?.description].filter(Boolean).join(' '),
    instructions: doc.server?.instructions ?? '',
  };
}

/**
 * Per-field term frequencies and field lengths of the field texts; the concept field weighs the
 * concepts of the terms of every field but parameters and instructions.
 */
function _fieldTerms(
  texts: Record<Exclude<SearchField, 'concepts'>, string>,
  concepts: boolean,
): { termTf: Map<string, number[]>; len: Float64Array } {
  const termTf = new Map<string, number[]>();
  const len = new Float64Array(_FIELD_COUNT);
  const conceptSource: string[] = [];
  _FIELDS.forEach((field, f) => {
    let counts: Map<string, number>;
    if (field === 'concepts') {
      counts = concepts ? conceptWeights(conceptSource) : new Map();
    } else {
      counts = new Map();
      const terms = tokenizeForSearch(texts[field]);
      if (field !== 'params' && field !== 'instructions') for (const t of terms) conceptSource.push(t);
      for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    for (const [t, c] of counts) {
      let row = termTf.get(t);
      if (row === undefined) {
        row = new Array<number>(_FIELD_COUNT).fill(0);
        termTf.set(t, row);
      }
      row[f] = c;
      len[f] = len[f]! + c;
    }
  });
  return { termTf, len };
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
