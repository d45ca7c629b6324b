/**
 * Text vectors from static word vectors, the "dense" half of tool search: a query and a tool that
 * say the same thing in different words ("scholarly articles" / "academic papers") land close
 * even when the concept lexicon has no entry for them.
 *
 * The vectors are GloVe 6B 100-d (Public Domain Dedication and License 1.0), the 60,000 most
 * frequent plain words, quantized to 4 bits and embedded in the package (about 4.5 MB of source;
 * no download, no model runtime). A text's vector is the SIF-weighted mean of its words' unit vectors
 * (Arora, Liang and Ma 2017: weight a / (a + p(w)), p from the word's frequency rank by Zipf's
 * law), so frequent words count little and rare, specific words count most.
 * @module
 */
import { _VECTORS_BASE64, _WORDS } from './_word-vectors.data.js';
import { splitIdentifier } from './identifier.js';
import { singularize } from './inflect.js';
import { _WORD, STOP_WORDS } from './search-tokenizer.js';

/** Components per vector. */
export const WORD_VECTOR_DIMENSIONS = 100;

/** SIF smoothing `a` (chosen on half A of the dev retrieval set). */
const SIF_A = 1e-4;

interface _Table {
  /** Row of each word. */
  readonly rows: ReadonlyMap<string, number>;
  /** Quantized components (-7 to 7), row by row. */
  readonly values: Int8Array;
  /** Per row: its SIF weight divided by its length, so `scale × values` is the weighted unit vector. */
  readonly scale: Float32Array;
}

let _table: _Table | undefined;

/** Decodes the embedded table on first use (tens of ms), then keeps it (6 MB). */
function _loadTable(): _Table {
  if (_table !== undefined) return _table;
  const words = _WORDS.split(' ');
  const packed = atob(_VECTORS_BASE64);
  const d = WORD_VECTOR_DIMENSIONS;
  const values = new Int8Array(words.length * d);
  for (let i = 0, o = 0; i < packed.length; i++, o += 2) {
    const byte = packed.charCodeAt(i);
    values[o] = (byte >> 4) - 8;
    values[o + 1] = (byte & 15) - 8;
  }
  const scale = new Float32Array(words.length);
  // Zipf: p(rank r) ≈ 1 / (r · H), H the harmonic number of the vocabulary size.
  const harmonic = Math.log(words.length) + 0.5772156649;
  const rows = new Map<string, number>();
  for (let r = 0; r < words.length; r++) {
    rows.set(words[r]!, r);
    let norm = 0;
    for (let k = 0, o = r * d; k < d; k++, o++) norm += values[o]! * values[o]!;
    const p = 1 / ((r + 1) * harmonic);
    scale[r] = SIF_A / (SIF_A + p) / Math.sqrt(norm);
  }
  _table = { rows, values, scale };
  return _table;
}

/** Rows of the words of one text word, cached: splitting identifiers costs more than the sums. */
const _ROWS_CACHE = new Map<string, readonly number[]>();
const _ROWS_CACHE_LIMIT = 50_000;

function _rowsOf(token: string, rows: ReadonlyMap<string, number>): readonly number[] {
  const cached = _ROWS_CACHE.get(token);
  if (cached !== undefined) return cached;
  const out: number[] = [];
  for (const word of splitIdentifier(token)) {
    if (STOP_WORDS.has(word)) continue;
    // An inflection outside the table falls back to its singular ("canines" → "canine").
    const row = rows.get(word) ?? rows.get(singularize(word));
    if (row !== undefined) out.push(row);
  }
  if (_ROWS_CACHE.size >= _ROWS_CACHE_LIMIT) _ROWS_CACHE.clear();
  _ROWS_CACHE.set(token, out);
  return out;
}

/**
 * The unit vector of a text (words split like identifiers, stop words dropped), or `null` when
 * none of its words is in the table. Deterministic: a pure function of the text.
 * @example
 * const a = textVector('find academic papers')!;
 * const b = textVector('search scholarly articles')!;
 * vectorSimilarity(a, b); // ≈ 0.8: close in meaning, no word in common
 */
export function textVector(text: string): Float32Array | null {
  const { rows, values, scale } = _loadTable();
  const d = WORD_VECTOR_DIMENSIONS;
  const sum = new Float64Array(d);
  let found = false;
  for (const match of text.matchAll(_WORD)) {
    for (const row of _rowsOf(match[0], rows)) {
      found = true;
      const w = scale[row]!;
      for (let k = 0, o = row * d; k < d; k++, o++) sum[k] = sum[k]! + w * values[o]!;
    }
  }
  if (!found) return null;
  let norm = 0;
  for (let k = 0; k < d; k++) norm += sum[k]! * sum[k]!;
  norm = Math.sqrt(norm);
  const out = new Float32Array(d);
  if (norm === 0) return null;
  for (let k = 0; k < d; k++) out[k] = sum[k]! / norm;
  return out;
}

/** Cosine similarity of two unit vectors from {@link textVector} (from -1 to 1). */
export function vectorSimilarity(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let k = 0; k < a.length; k++) dot += a[k]! * b[k]!;
  return dot;
}
