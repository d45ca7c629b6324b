/**
 * The ratio gate: a short run of the suites whose ratios (subject against a baseline raced in the
 * same run) must stay under their reference times a margin. Never an absolute time: a loaded
 * machine slows the baseline and the subject alike, and the interleaved rounds and medians keep
 * the ratios steady. The references and the margin are in gate.json (docs/performance.md, "The
 * ratio gate").
 * @module
 */

/** gate.json: per ratio key (as the suites name them), its reference value and margin. */
export interface GateLimits {
  /** A ratio fails when it exceeds reference × margin; lower is better. */
  readonly limits: Readonly<Record<string, { readonly reference: number; readonly margin: number }>>;
}

/** The verdict on one ratio. */
export interface GateVerdict {
  readonly key: string;
  readonly measured: number;
  readonly reference: number;
  readonly limit: number;
  readonly ok: boolean;
}

/**
 * Checks every reference ratio against `measured`; a reference with no measurement fails (a
 * suite that stopped reporting a ratio must not pass silently).
 * @example
 * checkRatios({ 'a/b': 1.2 }, { limits: { 'a/b': { reference: 1, margin: 1.5 } } }); // [{ key: 'a/b', ok: true, limit: 1.5, … }]
 */
export function checkRatios(measured: Readonly<Record<string, number>>, gate: GateLimits): GateVerdict[] {
  return Object.entries(gate.limits).map(([key, { reference, margin }]) => {
    const value = measured[key] ?? Number.NaN;
    const limit = reference * margin;
    return { key, measured: value, reference, limit, ok: Number.isFinite(value) && value <= limit };
  });
}

/** One line per verdict, for the test's failure message and the log. */
export function formatVerdicts(verdicts: readonly GateVerdict[]): string {
  return verdicts
    .map(
      (v) =>
        `${v.ok ? 'ok  ' : 'FAIL'} ${v.key}: measured ${v.measured.toFixed(2)}, limit ${v.limit.toFixed(2)} (reference ${v.reference.toFixed(2)})`,
    )
    .join('\n');
}
