// The deterministic half of scripts/train-ranker.mjs: pairwise logistic regression (RankNet with
// a linear scorer) fitted by Newton's method with an L2 penalty, k-fold cross-validation and
// nDCG@10 of re-ranked candidate lists. No randomness anywhere: the same data give the same
// weights, bit for bit.
import { gradedGold, ndcgAt } from './retrieval-metrics.mjs';

/**
 * A training example: one query's candidates.
 * @typedef {{ id: string, ids: string[], rows: Float64Array[], gold: {id: string, grade: number}[] }} Example
 */

/** Per-feature mean and standard deviation over every row of the examples (std 0 → 1). */
export function featureStats(examples, width) {
  const mean = new Float64Array(width);
  const std = new Float64Array(width);
  let n = 0;
  for (const ex of examples)
    for (const row of ex.rows) {
      n++;
      for (let f = 0; f < width; f++) mean[f] += row[f];
    }
  for (let f = 0; f < width; f++) mean[f] /= n || 1;
  for (const ex of examples)
    for (const row of ex.rows) for (let f = 0; f < width; f++) std[f] += (row[f] - mean[f]) ** 2;
  for (let f = 0; f < width; f++) {
    const s = Math.sqrt(std[f] / (n || 1));
    std[f] = s > 1e-12 ? s : 1;
  }
  return { mean, std };
}

/**
 * Preference pairs (better minus worse, standardized), weighted: `query` gives each query a
 * total weight of 1, `pair` each pair 1 (then scaled so the total is the number of queries); with
 * `gainDiff` a pair also weighs the difference of its grades; with `pairDepth` only pairs with at
 * least one of the two among the first `pairDepth` candidates count (the ones nDCG@10 can see).
 */
export function pairsOf(
  examples,
  stats,
  { weighting = 'query', gainDiff = false, pairDepth = Infinity } = {},
) {
  const width = stats.mean.length;
  const diffs = [];
  const weights = [];
  let queries = 0;
  for (const ex of examples) {
    const gain = new Map();
    for (const g of gradedGold(ex.gold)) gain.set(g.id, Math.max(gain.get(g.id) ?? 0, g.grade));
    const z = ex.rows.map((row) => Float64Array.from(row, (x, f) => (x - stats.mean[f]) / stats.std[f]));
    const g = ex.ids.map((id) => gain.get(id) ?? 0);
    const local = [];
    for (let i = 0; i < g.length; i++)
      for (let j = 0; j < g.length; j++) {
        if (g[i] <= g[j] || Math.min(i, j) >= pairDepth) continue;
        const d = new Float64Array(width);
        for (let f = 0; f < width; f++) d[f] = z[i][f] - z[j][f];
        local.push([d, gainDiff ? g[i] - g[j] : 1]);
      }
    if (local.length === 0) continue;
    queries++;
    let total = 0;
    for (const [, w] of local) total += w;
    for (const [d, w] of local) {
      diffs.push(d);
      weights.push(weighting === 'query' ? w / total : w);
    }
  }
  if (weighting === 'pair') {
    let total = 0;
    for (const w of weights) total += w;
    for (let k = 0; k < weights.length; k++) weights[k] *= queries / (total || 1);
  }
  return { diffs, weights: Float64Array.from(weights), queries };
}

/**
 * Minimises Σ w·log(1 + exp(−β·d)) + λ/2·‖β − prior‖² over the features `mask` allows (others
 * stay 0), by Newton's method (at most 50 steps, until the step is below 1e-10). `prior` (default
 * 0) is where the penalty pulls: 0, or the hand-set ranker's weights to shrink towards it.
 */
export function fitPairwise({ diffs, weights }, width, { lambda, mask, prior, start }) {
  const active = [];
  for (let f = 0; f < width; f++) if (mask === undefined || mask[f]) active.push(f);
  const m = active.length;
  const beta = new Float64Array(width);
  if (start !== undefined) for (const f of active) beta[f] = start[f];
  for (let iter = 0; iter < 50; iter++) {
    const grad = new Float64Array(m);
    const hess = new Float64Array(m * m);
    for (let k = 0; k < diffs.length; k++) {
      const d = diffs[k];
      let s = 0;
      for (let a = 0; a < m; a++) s += beta[active[a]] * d[active[a]];
      const p = 1 / (1 + Math.exp(s)); // σ(−s)
      const w = weights[k];
      const h = w * p * (1 - p);
      for (let a = 0; a < m; a++) {
        const da = d[active[a]];
        grad[a] -= w * p * da;
        const hd = h * da;
        for (let c = 0; c <= a; c++) hess[a * m + c] += hd * d[active[c]];
      }
    }
    for (let a = 0; a < m; a++) {
      grad[a] += lambda * (beta[active[a]] - (prior?.[active[a]] ?? 0));
      hess[a * m + a] += lambda;
      for (let c = 0; c < a; c++) hess[c * m + a] = hess[a * m + c];
    }
    const step = solve(hess, grad, m);
    let size = 0;
    for (let a = 0; a < m; a++) {
      beta[active[a]] -= step[a];
      size = Math.max(size, Math.abs(step[a]));
    }
    if (size < 1e-10) break;
  }
  return beta;
}

/** Solves A x = b (A symmetric positive definite, m × m, row-major) by Gaussian elimination with partial pivoting. */
export function solve(A, b, m) {
  const a = Float64Array.from(A);
  const x = Float64Array.from(b);
  for (let col = 0; col < m; col++) {
    let pivot = col;
    for (let r = col + 1; r < m; r++) if (Math.abs(a[r * m + col]) > Math.abs(a[pivot * m + col])) pivot = r;
    if (pivot !== col) {
      for (let c = 0; c < m; c++) [a[col * m + c], a[pivot * m + c]] = [a[pivot * m + c], a[col * m + c]];
      [x[col], x[pivot]] = [x[pivot], x[col]];
    }
    const diag = a[col * m + col];
    for (let r = col + 1; r < m; r++) {
      const factor = a[r * m + col] / diag;
      if (factor === 0) continue;
      for (let c = col; c < m; c++) a[r * m + c] -= factor * a[col * m + c];
      x[r] -= factor * x[col];
    }
  }
  for (let r = m - 1; r >= 0; r--) {
    let s = x[r];
    for (let c = r + 1; c < m; c++) s -= a[r * m + c] * x[c];
    x[r] = s / a[r * m + r];
  }
  return x;
}

/** Weights on the raw features from standardized ones: w = β / std, bias = −Σ β·mean / std. */
export function unstandardize(beta, stats) {
  const weights = Array.from(beta, (b, f) => b / stats.std[f]);
  let bias = 0;
  beta.forEach((b, f) => {
    bias -= (b * stats.mean[f]) / stats.std[f];
  });
  return { weights, bias };
}

/** Rounds to 6 significant digits (and −0 to 0), so the generated file is short and stable. */
export function round6(x) {
  const r = Number(x.toPrecision(6));
  return r === 0 ? 0 : r;
}

/** Mean nDCG@10 (×100) of the examples re-ranked by a linear scorer (ties by candidate order). */
export function meanNdcg(examples, weights, bias = 0) {
  let sum = 0;
  for (const ex of examples) sum += ndcgAt(rerank(ex, weights, bias), gradedGold(ex.gold), 10);
  return (100 * sum) / (examples.length || 1);
}

/** Candidate ids by descending linear score, ties by their order in the candidate list. */
export function rerank(ex, weights, bias = 0) {
  const scored = ex.ids.map((id, i) => {
    let s = bias;
    for (let f = 0; f < weights.length; f++) s += weights[f] * ex.rows[i][f];
    return { id, s, i };
  });
  scored.sort((x, y) => y.s - x.s || x.i - y.i);
  return scored.map((c) => c.id);
}

/** Fold of the i-th example (0 … k−1): every k-th example, in file order. */
export function foldOf(i, k) {
  return i % k;
}

/**
 * Coordinate ascent on mean nDCG@10 (Metzler and Croft 2007), from `start` (raw weights): each
 * allowed feature's weight in turn moves by ±step standard deviations of the feature's inverse,
 * largest steps first, and a move is kept when it raises the mean strictly; `passes` rounds.
 */
export function coordinateAscent(examples, start, stats, { mask, passes = 2, steps = [1, 0.3, 0.1] } = {}) {
  const w = Array.from(start);
  let best = meanNdcg(examples, w);
  for (let pass = 0; pass < passes; pass++) {
    for (let f = 0; f < w.length; f++) {
      if (mask !== undefined && !mask[f]) continue;
      for (const step of steps) {
        for (const sign of [1, -1]) {
          const trial = w.slice();
          trial[f] += (sign * step) / stats.std[f];
          const score = meanNdcg(examples, trial);
          if (score > best + 1e-9) {
            best = score;
            w[f] = trial[f];
          }
        }
      }
    }
  }
  return w;
}

/**
 * Fits on `train` with one setting; returns raw-feature weights and bias. `shrinkTo: f` pulls the
 * weights towards a ranker by feature f alone (the hand-set blend) instead of towards 0;
 * `refine: 'ca'` follows the logistic fit with coordinate ascent on nDCG@10.
 */
export function train(trainSet, width, setting) {
  const stats = featureStats(trainSet, width);
  const pairs = pairsOf(trainSet, stats, setting);
  let prior;
  if (setting.shrinkTo !== undefined) {
    // The hand-set ranker scaled to fit: a one-feature fit on its score, where the penalty pulls.
    const only = Array.from({ length: width }, (_, f) => f === setting.shrinkTo);
    prior = fitPairwise(pairs, width, { lambda: 1e-3, mask: only });
  }
  const beta = fitPairwise(pairs, width, { ...setting, prior });
  const fitted = unstandardize(beta, stats);
  if (setting.refine !== 'ca') return fitted;
  return { weights: coordinateAscent(trainSet, fitted.weights, stats, setting), bias: fitted.bias };
}

/** k-fold cross-validated nDCG@10 (×100) of a setting, pooled over every held-out example. */
export function crossValidate(examples, width, setting, k = 5) {
  let sum = 0;
  for (let fold = 0; fold < k; fold++) {
    const trainSet = examples.filter((_, i) => foldOf(i, k) !== fold);
    const held = examples.filter((_, i) => foldOf(i, k) === fold);
    const { weights, bias } = train(trainSet, width, setting);
    sum += meanNdcg(held, weights, bias) * held.length;
  }
  return sum / examples.length;
}

/** FNV-1a 32-bit hash of a string. */
export function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * Outer fold of every example for fold split `split` (see eval/README.md, "Decision rule"): split 0
 * puts example i in fold i mod k; split s > 0 orders the examples by the FNV-1a hash of
 * `"<s>:<id>"` (ties by file order) and puts the one at position i in fold i mod k.
 */
export function splitFolds(examples, split, k) {
  const folds = new Array(examples.length);
  if (split === 0) {
    for (let i = 0; i < examples.length; i++) folds[i] = i % k;
    return folds;
  }
  const order = examples
    .map((ex, i) => ({ i, h: fnv1a(`${split}:${ex.id}`) }))
    .sort((a, b) => a.h - b.h || a.i - b.i);
  order.forEach(({ i }, position) => {
    folds[i] = position % k;
  });
  return folds;
}

/** Per-example nDCG@10 (×100) of the examples re-ranked by a linear scorer. */
export function perExampleNdcg(examples, weights, bias = 0) {
  return examples.map((ex) => 100 * ndcgAt(rerank(ex, weights, bias), gradedGold(ex.gold), 10));
}

/**
 * The setting of `grid` with the best k-fold cross-validated nDCG@10 on `examples` (folds i mod k,
 * in their order); the first best in grid order wins.
 */
export function pickSetting(examples, width, grid, k = 5) {
  if (grid.length === 1) return grid[0];
  const sums = new Float64Array(grid.length);
  for (let fold = 0; fold < k; fold++) {
    const trainSet = examples.filter((_, i) => foldOf(i, k) !== fold);
    const held = examples.filter((_, i) => foldOf(i, k) === fold);
    trainPath(trainSet, width, grid).forEach(({ weights, bias }, g) => {
      sums[g] += meanNdcg(held, weights, bias) * held.length;
    });
  }
  let best = 0;
  for (let g = 1; g < grid.length; g++) if (sums[g] > sums[best] + 1e-9) best = g;
  return grid[best];
}

/**
 * {@link train} for every setting of a grid whose settings differ only in the L2 weight (same
 * pairs, mask and prior): the pairs are built once and each fit starts from the previous one's
 * weights (largest L2 weight first), which converges to the same optimum in fewer Newton steps.
 * Results in grid order.
 */
export function trainPath(trainSet, width, grid) {
  const first = grid[0];
  const same = grid.every(
    (s) =>
      s.weighting === first.weighting &&
      s.gainDiff === first.gainDiff &&
      s.pairDepth === first.pairDepth &&
      s.mask === first.mask &&
      s.shrinkTo === first.shrinkTo &&
      s.refine === undefined,
  );
  if (!same) return grid.map((s) => train(trainSet, width, s));
  const stats = featureStats(trainSet, width);
  const pairs = pairsOf(trainSet, stats, first);
  let prior;
  if (first.shrinkTo !== undefined) {
    const only = Array.from({ length: width }, (_, f) => f === first.shrinkTo);
    prior = fitPairwise(pairs, width, { lambda: 1e-3, mask: only });
  }
  const order = grid.map((_, g) => g).sort((a, b) => grid[b].lambda - grid[a].lambda || a - b);
  const out = new Array(grid.length);
  let start = prior;
  for (const g of order) {
    const beta = fitPairwise(pairs, width, { ...grid[g], prior, start });
    out[g] = unstandardize(beta, stats);
    start = beta;
  }
  return out;
}

/**
 * Nested cross-validation of a family (a grid of settings), as the decision rule of eval/README.md
 * states it: for each fold split, outer k-fold; inside each outer training set the setting is picked
 * by an inner k-fold cross-validation, fitted on that training set and scored on the held-out fold.
 * Returns, per split, the mean held-out nDCG@10 and every example's held-out nDCG@10, and the
 * settings picked.
 */
export function nestedCrossValidate(examples, width, grid, { splits = 3, k = 5 } = {}) {
  const out = [];
  for (let split = 0; split < splits; split++) {
    const folds = splitFolds(examples, split, k);
    const perExample = new Float64Array(examples.length);
    const picked = [];
    for (let fold = 0; fold < k; fold++) {
      const trainSet = examples.filter((_, i) => folds[i] !== fold);
      const setting = pickSetting(trainSet, width, grid, k);
      picked.push(setting);
      const { weights, bias } = train(trainSet, width, setting);
      examples.forEach((ex, i) => {
        if (folds[i] !== fold) return;
        perExample[i] = 100 * ndcgAt(rerank(ex, weights, bias), gradedGold(ex.gold), 10);
      });
    }
    let sum = 0;
    for (const x of perExample) sum += x;
    out.push({ split, mean: sum / (examples.length || 1), perExample, picked });
  }
  return out;
}

/**
 * The decision rule's statistics of a nested cross-validation against a baseline's per-example
 * nDCG@10: per-split gains, their mean, and the one-sided paired t statistic of the per-example
 * gain (held-out nDCG@10 averaged over the splits, minus the baseline's).
 */
export function gainStats(nested, baseline) {
  const n = baseline.length;
  let base = 0;
  for (const x of baseline) base += x;
  base /= n || 1;
  const splitGains = nested.map((s) => s.mean - base);
  const diffs = baseline.map(
    (b, i) => nested.reduce((acc, s) => acc + s.perExample[i], 0) / nested.length - b,
  );
  const mean = diffs.reduce((a, d) => a + d, 0) / (n || 1);
  const variance = diffs.reduce((a, d) => a + (d - mean) ** 2, 0) / Math.max(1, n - 1);
  const t = variance > 0 ? mean / Math.sqrt(variance / n) : mean > 0 ? Number.POSITIVE_INFINITY : 0;
  return {
    baseline: base,
    splitGains,
    meanGain: splitGains.reduce((a, g) => a + g, 0) / (splitGains.length || 1),
    t,
  };
}
