/**
 * Static sentence embeddings distilled from a sentence encoder (Model2Vec-style): every word and
 * subword piece of a vocabulary was embedded once, on its own, by Universal Sentence Encoder Lite
 * (Apache-2.0), reduced by principal components and quantized to int8 (see
 * scripts/build-static-embeddings.mjs). A text's vector is the SIF-weighted mean of its words'
 * rows: no model, no download, no runtime dependency; microseconds per text.
 *
 * A word outside the vocabulary falls back to its singular, then to the encoder's own subword
 * pieces (greedy longest match, `_` marking the word start); a word no piece covers is skipped.
 * @module
 */
import {
  _STATIC_DIMENSIONS,
  _STATIC_PIECES,
  _STATIC_VECTORS_BASE64,
  _STATIC_WEIGHTS_BASE64,
  _STATIC_WORDS,
} from './_static-embeddings.data.js';
import { splitIdentifier } from './identifier.js';
import { singularize } from './inflect.js';
import { _WORD, STOP_WORDS } from './search-tokenizer.js';
import type { TextEmbedder } from './text-embedder.js';

/**
 * The static embeddings as a {@link TextEmbedder}: `ToolIndex`'s default embedder (weight: the
 * index's default). `new ToolIndex({ embedder: null })` searches without it.
 */
export const staticEmbedder: TextEmbedder = Object.freeze({
  embed: (text: string) => staticTextVector(text),
});

/** Components per static embedding. */
export const STATIC_EMBEDDING_DIMENSIONS: number = _STATIC_DIMENSIONS;

/** Longest subword piece tried in the fallback (characters, word-start marker included). */
const _MAX_PIECE = 16;

interface _StaticTable {
  /** Row of each word. */
  readonly words: ReadonlyMap<string, number>;
  /** Row of each subword piece (`_` prefix = word start). */
  readonly pieces: ReadonlyMap<string, number>;
  readonly values: Int8Array;
  /** Per row: its SIF weight divided by its length, so `scale × values` is the weighted unit row. */
  readonly scale: Float32Array;
}

let _table: _StaticTable | undefined;

/** Decodes the embedded table on first use, then keeps it. @internal */
export function _loadStaticTable(): _StaticTable {
  if (_table !== undefined) return _table;
  const wordList = _STATIC_WORDS.length > 0 ? _STATIC_WORDS.split(' ') : [];
  const pieceList = _STATIC_PIECES.length > 0 ? _STATIC_PIECES.split(' ') : [];
  const d = _STATIC_DIMENSIONS;
  const packed = atob(_STATIC_VECTORS_BASE64);
  const values = new Int8Array(packed.length);
  for (let i = 0; i < packed.length; i++) values[i] = (packed.charCodeAt(i) << 24) >> 24;
  const weights = atob(_STATIC_WEIGHTS_BASE64);
  const rows = wordList.length + pieceList.length;
  if (values.length !== rows * d || weights.length !== rows) {
    throw new Error(
      `static embeddings: expected ${rows} rows of ${d} components and ${rows} weights, got ${values.length} components and ${weights.length} weights`,
    );
  }
  const scale = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    let norm = 0;
    for (let k = 0, o = r * d; k < d; k++, o++) norm += values[o]! * values[o]!;
    scale[r] = norm === 0 ? 0 : weights.charCodeAt(r) / 255 / Math.sqrt(norm);
  }
  const words = new Map<string, number>();
  for (let r = 0; r < wordList.length; r++) words.set(wordList[r]!, r);
  const pieces = new Map<string, number>();
  for (let i = 0; i < pieceList.length; i++) pieces.set(pieceList[i]!, wordList.length + i);
  _table = { words, pieces, values, scale };
  return _table;
}

/** Rows (and their share of the word) of one text token, cached. */
const _ROWS_CACHE = new Map<string, readonly (readonly [number, number])[]>();
const _ROWS_CACHE_LIMIT = 50_000;

/**
 * The rows a word stands for, each with its share: its own row; else its singular's; else the
 * pieces of a greedy longest-match segmentation (each 1 / pieces), or none when a character is
 * left uncovered. @internal
 */
export function _staticRowsOfWord(word: string, table: _StaticTable): (readonly [number, number])[] {
  const row = table.words.get(word) ?? table.words.get(singularize(word));
  if (row !== undefined) return [[row, 1]];
  const out: number[] = [];
  let at = 0;
  while (at < word.length) {
    let found = -1;
    let end = Math.min(word.length, at + _MAX_PIECE);
    for (; end > at; end--) {
      const piece = (at === 0 ? '_' : '') + word.slice(at, end);
      const r = table.pieces.get(piece);
      if (r !== undefined) {
        found = r;
        break;
      }
    }
    if (found < 0) return [];
    out.push(found);
    at = end;
  }
  return out.map((r) => [r, 1 / out.length] as const);
}

function _rowsOf(token: string, table: _StaticTable): readonly (readonly [number, number])[] {
  const cached = _ROWS_CACHE.get(token);
  if (cached !== undefined) return cached;
  const out: (readonly [number, number])[] = [];
  for (const word of splitIdentifier(token)) {
    if (STOP_WORDS.has(word)) continue;
    out.push(..._staticRowsOfWord(word, table));
  }
  if (_ROWS_CACHE.size >= _ROWS_CACHE_LIMIT) _ROWS_CACHE.clear();
  _ROWS_CACHE.set(token, out);
  return out;
}

/**
 * The unit static embedding of a text (words split like identifiers, lower-cased, stop words
 * dropped), or `null` when no word has a row. Deterministic: a pure function of the text.
 * @example
 * const a = staticTextVector('kill the process hogging the CPU')!;
 * const b = staticTextVector('terminate a running program')!;
 * vectorSimilarity(a, b); // higher than for an unrelated text
 */
export function staticTextVector(text: string): Float32Array | null {
  const table = _loadStaticTable();
  const { values, scale } = table;
  const d = _STATIC_DIMENSIONS;
  const sum = new Float64Array(d);
  let found = false;
  for (const match of text.matchAll(_WORD)) {
    for (const [row, share] of _rowsOf(match[0], table)) {
      const w = scale[row]! * share;
      if (w === 0) continue;
      found = true;
      for (let k = 0, o = row * d; k < d; k++, o++) sum[k] = sum[k]! + w * values[o]!;
    }
  }
  if (!found) return null;
  let norm = 0;
  for (let k = 0; k < d; k++) norm += sum[k]! * sum[k]!;
  if (norm === 0) return null;
  norm = Math.sqrt(norm);
  const out = new Float32Array(d);
  for (let k = 0; k < d; k++) out[k] = sum[k]! / norm;
  return out;
}
