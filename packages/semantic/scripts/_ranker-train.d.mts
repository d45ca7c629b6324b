/** One query's candidates and its graded gold. */
export interface Example {
  readonly id: string;
  readonly ids: readonly string[];
  readonly rows: readonly ArrayLike<number>[];
  readonly gold: readonly ({ id: string; grade: number } | string)[];
}
/** A training setting. */
export interface Setting {
  readonly lambda: number;
  readonly weighting?: 'query' | 'pair';
  readonly gainDiff?: boolean;
  readonly pairDepth?: number;
  readonly mask?: readonly boolean[];
  readonly refine?: 'ca';
  readonly shrinkTo?: number;
}
export declare function featureStats(
  examples: readonly Example[],
  width: number,
): { mean: Float64Array; std: Float64Array };
export declare function pairsOf(
  examples: readonly Example[],
  stats: { mean: Float64Array; std: Float64Array },
  options?: { weighting?: 'query' | 'pair'; gainDiff?: boolean; pairDepth?: number },
): { diffs: Float64Array[]; weights: Float64Array; queries: number };
export declare function fitPairwise(
  pairs: { diffs: readonly Float64Array[]; weights: Float64Array },
  width: number,
  options: {
    lambda: number;
    mask?: readonly boolean[];
    prior?: ArrayLike<number>;
    start?: ArrayLike<number>;
  },
): Float64Array;
export declare function solve(A: ArrayLike<number>, b: ArrayLike<number>, m: number): Float64Array;
export declare function unstandardize(
  beta: ArrayLike<number>,
  stats: { mean: Float64Array; std: Float64Array },
): { weights: number[]; bias: number };
export declare function round6(x: number): number;
export declare function meanNdcg(
  examples: readonly Example[],
  weights: readonly number[],
  bias?: number,
): number;
export declare function rerank(example: Example, weights: readonly number[], bias?: number): string[];
export declare function foldOf(i: number, k: number): number;
export declare function coordinateAscent(
  examples: readonly Example[],
  start: readonly number[],
  stats: { mean: Float64Array; std: Float64Array },
  options?: { mask?: readonly boolean[]; passes?: number; steps?: readonly number[] },
): number[];
export declare function train(
  trainSet: readonly Example[],
  width: number,
  setting: Setting,
): { weights: number[]; bias: number };
export declare function crossValidate(
  examples: readonly Example[],
  width: number,
  setting: Setting,
  k?: number,
): number;
export declare function fnv1a(text: string): number;
export declare function splitFolds(examples: readonly Example[], split: number, k: number): number[];
export declare function perExampleNdcg(
  examples: readonly Example[],
  weights: readonly number[],
  bias?: number,
): number[];
export declare function pickSetting(
  examples: readonly Example[],
  width: number,
  grid: readonly Setting[],
  k?: number,
): Setting;
export declare function nestedCrossValidate(
  examples: readonly Example[],
  width: number,
  grid: readonly Setting[],
  options?: { splits?: number; k?: number },
): { split: number; mean: number; perExample: Float64Array; picked: Setting[] }[];
export declare function gainStats(
  nested: readonly { mean: number; perExample: ArrayLike<number> }[],
  baseline: readonly number[],
): { baseline: number; splitGains: number[]; meanGain: number; t: number };
export declare function trainPath(
  trainSet: readonly Example[],
  width: number,
  grid: readonly Setting[],
): { weights: number[]; bias: number }[];
