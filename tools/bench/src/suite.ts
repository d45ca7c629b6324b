/**
 * What a suite returns: tables to print and write into docs/performance.md, and the named ratios
 * (subject against the baseline of the same run) that the JSON keeps and the gate checks.
 * @module
 */
import type { PeerResult } from './race.js';

/** One printed table. */
export interface Table {
  readonly caption: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** The outcome of one suite. */
export interface SuiteResult {
  readonly id: string;
  readonly title: string;
  readonly tables: readonly Table[];
  /** `<suite>.<what>` → a ratio measured against the baseline in this run (lower is better). */
  readonly ratios: Readonly<Record<string, number>>;
  /** The raw figures, for the JSON. */
  readonly data: unknown;
}

/** How long a run is. */
export type Size = 'full' | 'quick' | 'gate';

/** Knobs every suite takes. */
export interface SuiteOptions {
  /** `full` for `pnpm bench`; `quick` for a look; `gate`, the shortest, for the ratio gate. */
  readonly size: Size;
  /** Progress lines (stderr). */
  readonly log: (line: string) => void;
}

const _ms = (value: number): string => value.toFixed(2);

/** The standard table of a latency race: n, median, p99, calls/s, ratio, added ms. */
export function raceTable(caption: string, results: readonly PeerResult[]): Table {
  return {
    caption,
    header: ['peer', 'calls', 'median ms', 'p99 ms', 'calls/s', 'ratio', 'added ms'],
    rows: results.map((r) => [
      r.name,
      String(r.calls),
      _ms(r.medianMs),
      _ms(r.p99Ms),
      r.callsPerSecond.toFixed(0),
      `${r.ratio.toFixed(2)}×`,
      _ms(r.addedMs),
    ]),
  };
}
