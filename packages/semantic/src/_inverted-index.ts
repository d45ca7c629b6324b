/**
 * The inverted index behind `ToolIndex`: the indexed tools by id and by slot (a dense integer
 * handle, reused after removal), the per-field postings of every term, the term dictionary for
 * prefix and fuzzy lookup, and each field's total length (BM25F's length normalisation).
 * @module
 */
import SearchableMap from 'minisearch/SearchableMap';
import { _FIELD_COUNT, type _SearchSemantic, type ToolDocument } from './tool-document.js';
import type { VerbClass } from './verbs.js';

/**
 * The postings of one term: the slots of the documents holding it and, flattened, their per-field
 * term frequencies (`tf[i * _FIELD_COUNT + f]`).
 */
interface _Posting {
  readonly slots: number[];
  readonly tf: number[];
}

/** One indexed tool. */
export interface _Entry {
  /** Dense integer handle used by postings and score accumulators. */
  readonly slot: number;
  readonly doc: ToolDocument;
  /** The fields search reads (generated, with the document's own `semantic` on top). */
  readonly semantic: _SearchSemantic;
  readonly verbClass: VerbClass | null;
  readonly subjects: ReadonlySet<string>;
  readonly domain: string;
  /** The document's terms (keys of its postings). */
  readonly terms: readonly string[];
  /** Field lengths in terms, in `_FIELDS` order. */
  readonly len: Float64Array;
  /** Word-vector of name and description; null when none of their words has a vector. */
  readonly vector: Float32Array | null;
  /** The embedder's unit vector of the tool, or null (no embedder, or nothing to embed). */
  readonly embedding: Float32Array | null;
  /** Distinct search terms of the name's words (not the compound), sorted. */
  readonly nameTerms: readonly string[];
}

/** The tools and postings of one index. @internal */
export class _InvertedIndex {
  /** Entries by tool id. */
  readonly entries = new Map<string, _Entry>();
  /** Entries by slot (holes after removal are reused). */
  readonly slots: (_Entry | undefined)[] = [];
  readonly #freeSlots: number[] = [];
  /** Postings by term. */
  readonly postings = new Map<string, _Posting>();
  /** The term dictionary for prefix lookup: MiniSearch's radix tree (`SearchableMap`). */
  readonly dictionary = new SearchableMap<true>();
  /** Each field's length summed over all tools. */
  readonly totalLen = new Float64Array(_FIELD_COUNT);

  /** The slot of the next tool: a freed one first. */
  nextSlot(): number {
    return this.#freeSlots.pop() ?? this.slots.length;
  }

  /** Indexes a tool (its slot from {@link nextSlot}) with its per-field term frequencies. */
  insert(entry: _Entry, termTf: ReadonlyMap<string, readonly number[]>): void {
    for (let f = 0; f < _FIELD_COUNT; f++) this.totalLen[f] = this.totalLen[f]! + entry.len[f]!;
    for (const [t, row] of termTf) {
      let posting = this.postings.get(t);
      if (posting === undefined) {
        posting = { slots: [], tf: [] };
        this.postings.set(t, posting);
        this.dictionary.set(t, true);
      }
      posting.slots.push(entry.slot);
      for (const c of row) posting.tf.push(c);
    }
    this.entries.set(entry.doc.id, entry);
    this.slots[entry.slot] = entry;
  }

  /** Unindexes a tool; returns its per-field term frequencies, as {@link insert} was given them. */
  remove(entry: _Entry): Map<string, number[]> {
    this.entries.delete(entry.doc.id);
    this.slots[entry.slot] = undefined;
    this.#freeSlots.push(entry.slot);
    for (let f = 0; f < _FIELD_COUNT; f++) this.totalLen[f] = this.totalLen[f]! - entry.len[f]!;
    const termTf = new Map<string, number[]>();
    for (const t of entry.terms) {
      const posting = this.postings.get(t);
      if (posting === undefined) continue;
      const at = posting.slots.indexOf(entry.slot);
      if (at >= 0) termTf.set(t, posting.tf.slice(at * _FIELD_COUNT, (at + 1) * _FIELD_COUNT));
      if (at >= 0) {
        posting.slots.splice(at, 1);
        posting.tf.splice(at * _FIELD_COUNT, _FIELD_COUNT);
      }
      if (posting.slots.length === 0) {
        this.postings.delete(t);
        this.dictionary.delete(t);
      }
    }
    return termTf;
  }
}
