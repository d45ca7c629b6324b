/**
 * "Did you mean …?" for unknown keys: the nearest known key by optimal-string-alignment
 * (restricted Damerau–Levenshtein) distance, after folding case and `-`/`_`, or the one known key
 * whose consecutive words spell the unknown one (`namespace` → `xprotocol_namespace`).
 * @module
 */

/**
 * Optimal string alignment distance: insertions, deletions, substitutions and transpositions of
 * adjacent characters each cost 1.
 * @example
 * _editDistance('trasnport', 'transport'); // 1
 */
export function _editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        d[(i - 1) * cols + j]! + 1,
        d[i * cols + j - 1]! + 1,
        d[(i - 1) * cols + j - 1]! + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1]!;
}

function _fold(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, '');
}

/**
 * The known key an unknown key most likely meant, or `undefined` when none is close.
 * @example
 * _nearestKey('xprotocol_namepsace', ['name', 'xprotocol_namespace']); // 'xprotocol_namespace'
 * _nearestKey('keyFile', ['key_file', 'display_name']); // 'key_file'
 */
export function _nearestKey(unknown: string, known: readonly string[]): string | undefined {
  const folded = _fold(unknown);
  if (folded === '') return undefined;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const key of known) {
    const distance = _editDistance(folded, _fold(key));
    if (distance < bestDistance) {
      best = key;
      bestDistance = distance;
    }
  }
  const allowed = folded.length <= 4 ? 1 : folded.length <= 8 ? 2 : 3;
  if (best !== undefined && bestDistance <= allowed) return best;
  // whole words of a longer key: `namespace` → `xprotocol_namespace`, `port` → `well_known_port`
  if (folded.length >= 4) {
    const containing = known.filter((key) => _wordRuns(key).includes(folded));
    if (containing.length === 1) return containing[0];
  }
  return undefined;
}

/** Every run of consecutive words of a key, folded: `well_known_port` → `well`, `wellknown`, …. */
function _wordRuns(key: string): string[] {
  const words = key.toLowerCase().split(/[-_\s]+/);
  const runs: string[] = [];
  for (let i = 0; i < words.length; i++) {
    for (let j = i + 1; j <= words.length; j++) runs.push(words.slice(i, j).join(''));
  }
  return runs;
}
