/**
 * `xprotocol-conformance relay`: any relay, given by URL, judged against the relay vector files of
 * docs/protocol.md §9 (shipped in this package's dist/vectors, copied there at build). One named
 * check per group of cases; a check fails when one of its cases does, and each failure says what
 * was sent, what came back and what was expected.
 * @module
 */
import { readFileSync } from 'node:fs';
import {
  type RelayFiltersFile,
  type RelayFramesFile,
  type RelayVectorOptions,
  type RelayVectorResult,
  runRelayFilterVectors,
  runRelayFrameCase,
} from '@xprotocol/relay';
import type { Failure } from './check.js';

/** One check of the relay suite: the vector groups it runs. */
export interface RelayCheck {
  readonly name: string;
  readonly title: string;
}

/** The checks, in the order they run (`--only NAME` picks some). */
export const RELAY_CHECKS: readonly RelayCheck[] = [
  { name: 'framing', title: 'malformed frames get NOTICE invalid:, subscription ids, the frame cap' },
  { name: 'event-checks', title: 'shape, size, id, signature; an OK for every EVENT; the accept reason' },
  { name: 'freshness', title: 'created_at within the skew and the retention; expiration' },
  { name: 'duplicates', title: 'OK true duplicate:, before freshness, never delivered twice' },
  { name: 'subscriptions', title: 'CLOSE, reused and refused subscription ids, replies in order' },
  { name: 'filters', title: 'exact matching, order, limit, several filters, live events; CLOSED invalid:' },
  { name: 'reasons', title: 'an AUTH the relay did not ask for gets restricted:' },
  { name: 'limits', title: 'rate-limited: with retry after N s; the storage quota' },
];

/** The verdict on one relay check. */
export interface RelayCheckResult {
  readonly name: string;
  readonly title: string;
  /** `skipped` only when every case of the check needs limits the relay was not said to have. */
  readonly status: 'pass' | 'fail' | 'skipped';
  readonly cases: number;
  readonly failures: readonly Failure[];
  readonly notes: readonly string[];
  readonly durationMs: number;
}

/** The report of a relay run (`--json` prints it). */
export interface RelayReport {
  readonly relay: string;
  readonly passed: boolean;
  readonly checks: readonly RelayCheckResult[];
  readonly durationMs: number;
}

/** The vector files this package ships (dist/vectors, next to the bundle). */
function loadVectors(): { frames: RelayFramesFile; filters: RelayFiltersFile } {
  const read = (name: string): unknown => {
    const url = new URL(`./vectors/${name}`, import.meta.url);
    try {
      return JSON.parse(readFileSync(url, 'utf8'));
    } catch (error) {
      throw new Error(
        `the relay vectors are missing from this package (${url.pathname}): ${(error as Error).message}`,
      );
    }
  };
  return {
    frames: read('xp-relay-frames.json') as RelayFramesFile,
    filters: read('xp-relay-filters.json') as RelayFiltersFile,
  };
}

/** Runs `checks` against the relay of `options`; `onCheck` sees each verdict as it comes. */
export async function runRelaySuite(
  checks: readonly RelayCheck[],
  options: RelayVectorOptions,
  onCheck: (result: RelayCheckResult) => void,
): Promise<RelayReport> {
  const started = performance.now();
  const { frames, filters } = loadVectors();
  const results: RelayCheckResult[] = [];
  for (const check of checks) {
    const checkStarted = performance.now();
    const outcomes: RelayVectorResult[] = [];
    for (const testCase of frames.cases.filter((c) => c.group === check.name)) {
      outcomes.push(await runRelayFrameCase(frames, testCase, options));
    }
    if (check.name === 'filters') outcomes.push(...(await runRelayFilterVectors(filters, options)));
    const result = verdict(check, outcomes, Math.round(performance.now() - checkStarted));
    onCheck(result);
    results.push(result);
  }
  return {
    relay: options.url,
    passed: results.every((result) => result.status !== 'fail'),
    checks: results,
    durationMs: Math.round(performance.now() - started),
  };
}

function verdict(check: RelayCheck, outcomes: RelayVectorResult[], durationMs: number): RelayCheckResult {
  const failures = outcomes
    .filter((outcome) => outcome.status === 'fail')
    .map((outcome) => ({
      what: `${outcome.name} (docs/protocol.md ${outcome.doc})${outcome.note ? `: ${outcome.note}` : ''}`,
      sent: outcome.sent ?? '(see above)',
      received: outcome.received ?? '(see above)',
      expected: outcome.expected ?? '(see above)',
    }));
  const skipped = outcomes.filter((outcome) => outcome.status === 'skip');
  const notes = [
    `${outcomes.length - skipped.length - failures.length} of ${outcomes.length} cases passed`,
    ...skipped.map((outcome) => `skipped ${outcome.name}: ${outcome.note}`),
  ];
  const status = failures.length > 0 ? 'fail' : skipped.length === outcomes.length ? 'skipped' : 'pass';
  return {
    name: check.name,
    title: check.title,
    status,
    cases: outcomes.length,
    failures,
    notes,
    durationMs,
  };
}

/** Picks the checks `--only` names (all when none); throws on an unknown name. */
export function selectRelayChecks(only: readonly string[]): RelayCheck[] {
  if (only.length === 0) return [...RELAY_CHECKS];
  for (const name of only) {
    if (!RELAY_CHECKS.some((check) => check.name === name)) {
      throw new Error(
        `unknown relay check ${name}; expected one of ${RELAY_CHECKS.map((c) => c.name).join(', ')}`,
      );
    }
  }
  return RELAY_CHECKS.filter((check) => only.includes(check.name));
}
