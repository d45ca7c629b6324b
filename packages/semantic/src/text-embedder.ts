/**
 * The text-embedder contract of tool search: what `ToolIndexOptions.embedder` accepts (the static
 * embeddings are one), its default weight in the blend, and how the index checks and normalises
 * the vectors an embedder returns.
 * @module
 */

/** A synchronous text embedder for {@link ToolIndexOptions.embedder}. */
export interface TextEmbedder {
  /** The text's vector (any length, the same for every text), or `null` when it has none. */
  readonly embed: (text: string) => Float32Array | null;
  /** Weight of the cosine similarity in the blend (default {@link DEFAULT_EMBEDDER_WEIGHT}). */
  readonly weight?: number;
}

/** Default weight of an embedder's similarity (chosen on the MCP tuning tasks). */
export const DEFAULT_EMBEDDER_WEIGHT = 0.5;
