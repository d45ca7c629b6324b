/** Metrics in percent. */
export interface RetrievalMetrics {
  queries: number;
  r1: number;
  r5: number;
  r10: number;
  ndcg10: number;
}
/** Gold as ids (binary) or graded `{id, grade}` (2 needed, 1 acceptable). */
export type Gold = readonly string[] | ReadonlyArray<{ id: string; grade: number }>;
export declare function gradedGold(gold: Gold): { id: string; grade: number }[];
export declare function ndcgAt(
  ranked: readonly string[],
  gold: ReadonlyArray<{ id: string; grade: number }>,
  k?: number,
): number;
export declare function recallAt(
  ranked: readonly string[],
  gold: ReadonlyArray<{ id: string; grade: number }>,
  k: number,
): number;
export declare function evaluate(
  search: (text: string, limit: number) => ReadonlyArray<{ id: string }>,
  queries: ReadonlyArray<{ id: string; text: string; gold: Gold }>,
): RetrievalMetrics;
export declare function halfOf(id: string): 0 | 1;
