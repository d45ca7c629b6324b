// The deterministic half of scripts/build-static-embeddings.mjs: from raw encoder vectors (one
// per vocabulary entry) to the generated data module. No model here, so tests can run it on a tiny
// vocabulary: principal components by cyclic Jacobi rotations (exact, no random start), a fixed
// sign per component, 8-bit quantization per row, and the module text. Same input, same bytes.

/**
 * Mean and the `dims` leading principal axes of `rows` (Float32Array[] of equal length), as
 * Float64Arrays, with their variances and the total variance. Covariance in float64 summed in row order; eigenvectors by cyclic Jacobi
 * rotations; each axis's sign is chosen so that its largest-magnitude component is positive.
 */
export function principalAxes(rows, dims) {
  const n = rows[0].length;
  if (!(dims >= 1 && dims <= n)) throw new Error(`dims: expected 1 to ${n}, got ${dims}`);
  const mean = new Float64Array(n);
  for (const r of rows) for (let i = 0; i < n; i++) mean[i] += r[i];
  for (let i = 0; i < n; i++) mean[i] /= rows.length;
  const a = new Float64Array(n * n);
  const c = new Float64Array(n);
  for (const r of rows) {
    for (let i = 0; i < n; i++) c[i] = r[i] - mean[i];
    for (let i = 0; i < n; i++) {
      const ci = c[i];
      if (ci === 0) continue;
      const o = i * n;
      for (let j = i; j < n; j++) a[o + j] += ci * c[j];
    }
  }
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) a[j * n + i] = a[i * n + j] /= rows.length;
  let total = 0;
  for (let i = 0; i < n; i++) total += a[i * n + i];
  const { values, vectors } = _jacobi(a, n);
  const order = [...values.keys()].sort((x, y) => values[y] - values[x] || x - y);
  const axes = order.slice(0, dims).map((k) => {
    const axis = new Float64Array(n);
    for (let i = 0; i < n; i++) axis[i] = vectors[i * n + k];
    let at = 0;
    for (let i = 1; i < n; i++) if (Math.abs(axis[i]) > Math.abs(axis[at])) at = i;
    if (axis[at] < 0) for (let i = 0; i < n; i++) axis[i] = -axis[i];
    return axis;
  });
  return { mean, axes, variances: order.slice(0, dims).map((k) => values[k]), total };
}

/** Eigen-decomposition of the symmetric n×n matrix `a` (overwritten) by cyclic Jacobi sweeps. */
function _jacobi(a, n) {
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    let diag = 0;
    for (let p = 0; p < n; p++) {
      diag += a[p * n + p] ** 2;
      for (let q = p + 1; q < n; q++) off += a[p * n + q] ** 2;
    }
    if (off <= 1e-22 * diag) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (Math.abs(apq) < 1e-300) continue;
        const app = a[p * n + p];
        const aqq = a[q * n + q];
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const cs = 1 / Math.sqrt(t * t + 1);
        const sn = t * cs;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = cs * akp - sn * akq;
          a[k * n + q] = sn * akp + cs * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = cs * apk - sn * aqk;
          a[q * n + k] = sn * apk + cs * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p];
          const vkq = v[k * n + q];
          v[k * n + p] = cs * vkp - sn * vkq;
          v[k * n + q] = sn * vkp + cs * vkq;
        }
      }
    }
  }
  const values = Array.from({ length: n }, (_, i) => a[i * n + i]);
  return { values, vectors: v };
}

/** Projects one raw vector onto the axes (centred first): a Float64Array of `axes.length`. */
export function project(row, { mean, axes }) {
  const out = new Float64Array(axes.length);
  for (let k = 0; k < axes.length; k++) {
    const axis = axes[k];
    let s = 0;
    for (let i = 0; i < row.length; i++) s += (row[i] - mean[i]) * axis[i];
    out[k] = s;
  }
  return out;
}

/**
 * Quantizes projected rows to int8 (−127…127) per row: `q = round(x / maxAbs × 127)`. Returns the
 * bytes (row-major) and the per-row norms of the quantized rows (so the runtime can normalise).
 */
export function quantizeRows(projected) {
  const dims = projected[0]?.length ?? 0;
  const bytes = new Int8Array(projected.length * dims);
  projected.forEach((x, r) => {
    let max = 0;
    for (const v of x) max = Math.max(max, Math.abs(v));
    for (let k = 0; k < dims; k++) bytes[r * dims + k] = max === 0 ? 0 : Math.round((x[k] / max) * 127);
  });
  return bytes;
}

/**
 * SIF weight (Arora, Liang and Ma 2017) `a / (a + p)` quantized to 1…255, from a probability `p`.
 * Words: p by Zipf's law from the frequency rank; pieces: their unigram probability.
 */
export function sifByte(p, a) {
  return Math.max(1, Math.min(255, Math.round((a / (a + p)) * 255)));
}

/**
 * The generated module: the words, the subword pieces, the int8 rows and the per-row weights,
 * base64. `header` is the comment block (provenance and licences).
 */
export function renderModule({ header, words, pieces, dims, bytes, weights }) {
  const rows = words.length + pieces.length;
  if (bytes.length !== rows * dims) throw new Error(`expected ${rows * dims} bytes, got ${bytes.length}`);
  if (weights.length !== rows) throw new Error(`expected ${rows} weights, got ${weights.length}`);
  for (const w of [...words, ...pieces])
    if (/[\s'\\]/.test(w))
      throw new Error(`vocabulary entry ${JSON.stringify(w)} holds a space, quote or backslash`);
  const b64 = (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('base64');
  return `${header}
/** Components per row. @internal */
export const _STATIC_DIMENSIONS = ${dims};
/** ${words.length} words (rows 0…${words.length - 1}), separated by single spaces. @internal */
export const _STATIC_WORDS = '${words.join(' ')}';
/** ${pieces.length} subword pieces (the rows after the words; \`_\` marks a word start), separated by single spaces. @internal */
export const _STATIC_PIECES = '${pieces.join(' ')}';
/** ${rows} × ${dims} int8 components, row by row, base64. @internal */
export const _STATIC_VECTORS_BASE64 = '${b64(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))}';
/** ${rows} SIF weights (1…255, ×1/255), one byte per row, base64. @internal */
export const _STATIC_WEIGHTS_BASE64 = '${b64(weights)}';
`;
}
