/** Metrics in percent. */
export interface RetrievalMetrics {
  queries: number;
  r1: number;
  r5: number;
  r10: number;
  ndcg10: number;
}
export declare function evaluate(
  search: (text: string, limit: number) => ReadonlyArray<{ id: string }>,
  queries: ReadonlyArray<{ id: string; text: string; gold: readonly string[] }>,
): RetrievalMetrics;
export declare function halfOf(id: string): 0 | 1;
