/** A plain BM25 baseline (name + description, same tokenizer, no boosts). */
export declare class PlainBm25 {
  add(documents: ReadonlyArray<{ id: string; name: string; description?: string | undefined }>): void;
  search(query: string, options?: { limit?: number }): { id: string; score: number }[];
}
