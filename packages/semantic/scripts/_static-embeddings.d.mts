/** Principal axes of equal-length rows: mean, the `dims` leading axes, their variances, the total variance. */
export declare function principalAxes(
  rows: readonly ArrayLike<number>[],
  dims: number,
): { mean: Float64Array; axes: Float64Array[]; variances: number[]; total: number };
/** One row projected onto the axes (centred first). */
export declare function project(
  row: ArrayLike<number>,
  pca: { mean: Float64Array; axes: readonly Float64Array[] },
): Float64Array;
/** Rows quantized to int8 by each row's largest component, row-major. */
export declare function quantizeRows(projected: readonly ArrayLike<number>[]): Int8Array;
/** SIF weight a / (a + p) as a byte from 1 to 255. */
export declare function sifByte(p: number, a: number): number;
/** The generated data module's text. */
export declare function renderModule(input: {
  header: string;
  words: readonly string[];
  pieces: readonly string[];
  dims: number;
  bytes: Int8Array;
  weights: Uint8Array;
}): string;
