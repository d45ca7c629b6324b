/**
 * The text-embedder contract of tool search: what `ToolIndexOptions.embedder` accepts (the static
 * embeddings are one), its default weight in the blend, and how the index checks and normalises
 * the vectors an embedder returns.
 * @module
 */
import { SemanticError } from './errors.js';
import type { ToolDocument } from './tool-document.js';

/** A synchronous text embedder for {@link ToolIndexOptions.embedder}. */
export interface TextEmbedder {
  /** The text's vector (any length, the same for every text), or `null` when it has none. */
  readonly embed: (text: string) => Float32Array | null;
  /** Weight of the cosine similarity in the blend (default {@link DEFAULT_EMBEDDER_WEIGHT}). */
  readonly weight?: number;
}

/** Default weight of an embedder's similarity (chosen on the MCP tuning tasks). */
export const DEFAULT_EMBEDDER_WEIGHT = 0.5;

/** Characters of a tool's description an embedder sees (the start says what the tool does). */
const EMBED_DESCRIPTION_CHARS = 400;

/** What an embedder sees of a tool: its name, title and the start of its description. @internal */
export function _toolEmbeddingText(doc: ToolDocument): string {
  return [doc.name, doc.title, (doc.description ?? '').slice(0, EMBED_DESCRIPTION_CHARS)]
    .filter(Boolean)
    .join(' ');
}

/**
 * An index's embedder: checks every vector it returns (a non-empty `Float32Array`, all of the
 * length of the first) and normalises it to unit length. @internal
 */
export class _UnitEmbedder {
  readonly #embed: (text: string) => Float32Array | null;
  /** Weight of the cosine similarity in the blend. */
  readonly weight: number;
  /** Length of the embedder's vectors, fixed by the first one seen. */
  #length = 0;

  constructor(embedder: Required<TextEmbedder>) {
    this.#embed = embedder.embed;
    this.weight = embedder.weight;
  }

  /** The unit vector of `text`, or null when the embedder has none (`what` names it in errors). */
  unitVector(text: string, what: string): Float32Array | null {
    const v = this.#embed(text);
    if (v === null) return null;
    if (!(v instanceof Float32Array) || v.length === 0) {
      throw new SemanticError(
        'INVALID_ARGUMENT',
        `embedder: expected a non-empty Float32Array or null for ${what}, got ${Object.prototype.toString.call(v)}`,
      );
    }
    if (this.#length === 0) this.#length = v.length;
    if (v.length !== this.#length) {
      throw new SemanticError(
        'INVALID_ARGUMENT',
        `embedder: expected ${this.#length} components for ${what} (the length of its first vector), got ${v.length}`,
      );
    }
    let norm = 0;
    for (let k = 0; k < v.length; k++) norm += v[k]! * v[k]!;
    if (!(norm > 0) || !Number.isFinite(norm)) return null;
    norm = Math.sqrt(norm);
    return Float32Array.from(v, (x) => x / norm);
  }
}
