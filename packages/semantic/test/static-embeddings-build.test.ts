// The deterministic half of scripts/build-static-embeddings.mjs on a tiny vocabulary (no model):
// principal axes, projection, int8 rows, SIF bytes and the generated module.
import { describe, expect, it } from 'vitest';
import {
  principalAxes,
  project,
  quantizeRows,
  renderModule,
  sifByte,
} from '../scripts/_static-embeddings.mjs';

/** A tiny "encoder output": 12 rows of 6 components from a fixed linear congruential sequence,
 * stretched along one direction so the first axis is known. */
function _tinyRows(): Float32Array[] {
  let seed = 12345;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31 - 0.5;
  };
  const main = [1, 2, 0, -1, 0, 0.5];
  return Array.from({ length: 12 }, (_, r) => {
    const t = (r - 5.5) * 3;
    return Float32Array.from(main, (m) => m * t + next() * 0.2);
  });
}

function _build(): string {
  const rows = _tinyRows();
  const pca = principalAxes(rows, 3);
  const bytes = quantizeRows(rows.map((r) => project(r, pca)));
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];
  const pieces = ['_al', 'pha'];
  const weights = Uint8Array.from(rows, (_, r) => sifByte(1 / ((r + 1) * 3), 1e-4));
  return renderModule({ header: '// tiny', words, pieces, dims: 3, bytes, weights });
}

describe('build-static-embeddings (deterministic half)', () => {
  it('builds byte-identical modules from the same input', () => {
    const a = _build();
    const b = _build();
    expect(a).toBe(b);
    expect(a).toContain("export const _STATIC_WORDS = 'alpha beta gamma");
    expect(a).toContain("export const _STATIC_PIECES = '_al pha'");
    const b64 = /_STATIC_VECTORS_BASE64 = '([^']*)'/.exec(a)![1]!;
    expect(atob(b64).length).toBe(12 * 3);
  });

  it('finds the dominant direction first, orthonormal axes, sign fixed by the largest component', () => {
    const { axes, variances, total } = principalAxes(_tinyRows(), 3);
    const main = [1, 2, 0, -1, 0, 0.5];
    const len = Math.hypot(...main);
    const cos = axes[0]!.reduce((s, x, i) => s + x * main[i]!, 0) / len;
    expect(cos).toBeGreaterThan(0.999);
    expect(variances[0]!).toBeGreaterThan(variances[1]!);
    expect(variances[1]!).toBeGreaterThanOrEqual(variances[2]!);
    expect(variances[0]! / total).toBeGreaterThan(0.99);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const dot = axes[i]!.reduce((s, x, k) => s + x * axes[j]![k]!, 0);
        expect(dot).toBeCloseTo(i === j ? 1 : 0, 9);
      }
      const at = axes[i]!.reduce((best, x, k, a) => (Math.abs(x) > Math.abs(a[best]!) ? k : best), 0);
      expect(axes[i]![at]!).toBeGreaterThan(0);
    }
  });

  it('quantizes each row to int8 by its largest component', () => {
    const bytes = quantizeRows([Float64Array.from([0.5, -1, 0.25]), Float64Array.from([0, 0, 0])]);
    expect([...bytes]).toEqual([64, -127, 32, 0, 0, 0]);
  });

  it('weighs frequent entries low and rare ones high (SIF), within 1…255', () => {
    expect(sifByte(0.05, 1e-4)).toBe(1);
    expect(sifByte(1e-4, 1e-4)).toBe(128);
    expect(sifByte(1e-9, 1e-4)).toBe(255);
  });

  it('refuses a module whose sizes disagree or whose words would break the literal', () => {
    const bytes = new Int8Array(6);
    const weights = new Uint8Array(2);
    expect(() => renderModule({ header: '', words: ['a'], pieces: [], dims: 3, bytes, weights })).toThrow(
      /expected 3 bytes, got 6/,
    );
    expect(() =>
      renderModule({ header: '', words: ["it's", 'b'], pieces: [], dims: 3, bytes, weights }),
    ).toThrow(/holds a space, quote or backslash/);
  });
});
