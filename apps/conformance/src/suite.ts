/**
 * The suite: the eleven checks in the spec's order and the optional ones after them (12 to 14), the order they
 * run in, the spec's twelve mandatory behaviours mapped to the checks that prove them, and the
 * optional behaviours.
 * @module
 */

import { type Check, type CheckResult, runCheck, SharedFacts } from './check.js';
import { bidirectional } from './checks/bidirectional.js';
import { capability } from './checks/capability.js';
import { delegatedCallers } from './checks/delegated-callers.js';
import { delegationChain } from './checks/delegation-chain.js';
import { describe } from './checks/describe.js';
import { deterministic } from './checks/deterministic.js';
import { errors } from './checks/errors.js';
import { gbnf } from './checks/gbnf.js';
import { lowQuality } from './checks/low-quality.js';
import { nativeAnnounce } from './checks/native-announce.js';
import { nativeCall } from './checks/native-call.js';
import { nativeRefusals } from './checks/native-refusals.js';
import { promptsResources } from './checks/prompts-resources.js';
import { qualityScore } from './checks/quality-score.js';
import { semantic } from './checks/semantic.js';
import { signatures } from './checks/signatures.js';
import { trust } from './checks/trust.js';
import type { Profile } from './profile.js';
import type { Target } from './target.js';

/**
 * The eleven checks, numbered as the spec lists its conformance tests, then the optional ones
 * (12 on), which may report a behaviour `absent`.
 */
export const CHECKS: readonly Check[] = [
  deterministic,
  semantic,
  qualityScore,
  describe,
  lowQuality,
  capability,
  errors,
  signatures,
  trust,
  bidirectional,
  gbnf,
  delegationChain,
  delegatedCallers,
  promptsResources,
];

/**
 * The native profile's checks (docs/conformance.md, "Native endpoints"): those of the spec's list
 * that any endpoint owes, with the probe of its own catalog in place of the test MCP server.
 */
export const NATIVE_CHECKS: readonly Check[] = [
  deterministic,
  signatures,
  gbnf,
  nativeAnnounce,
  nativeCall,
  nativeRefusals,
];

/** Every check of either profile, for `--list` and `--only`. */
export const ALL_CHECKS: readonly Check[] = [...CHECKS, nativeAnnounce, nativeCall, nativeRefusals];

/** The checks of a profile. */
export function checksOf(profile: Profile): readonly Check[] {
  return profile === 'native' ? NATIVE_CHECKS : CHECKS;
}

/** Run order: the restart of the determinism check goes last, so it disturbs nothing else. */
const RUN_ORDER = [2, 3, 4, 5, 9, 15, 11, 12, 16, 6, 17, 13, 14, 10, 8, 7, 1];

/** The spec's mandatory behaviours and the checks that prove each. */
export const MUSTS: readonly { number: number; text: string; checks: readonly string[] }[] = [
  { number: 1, text: 'Deterministic MCP → XProtocol schema translation', checks: ['deterministic'] },
  { number: 2, text: 'Deterministic XProtocol → MCP tool translation', checks: ['bidirectional', 'errors'] },
  { number: 3, text: 'Auto-generated semantic annotations for all wrapped tools', checks: ['semantic'] },
  {
    number: 4,
    text: 'description_quality_score computed and published for all schemas',
    checks: ['quality-score'],
  },
  { number: 5, text: 'Low-quality schemas flagged in xp.endpoint.announce', checks: ['low-quality-flag'] },
  { number: 6, text: 'xp.schema.describe for Phase 1 discovery', checks: ['describe'] },
  { number: 7, text: 'Capability checks before forwarding to MCP servers', checks: ['capability'] },
  { number: 8, text: 'Ed25519 signatures verified on all incoming events', checks: ['signatures'] },
  {
    number: 9,
    text: "All outgoing events signed with the adapter's key",
    checks: ['signatures', 'trust-disclosure'],
  },
  { number: 10, text: 'All outgoing event payloads encrypted', checks: ['signatures'] },
  {
    number: 11,
    text: 'Conformant xp.endpoint.announce with mcp_sources disclosure',
    checks: ['trust-disclosure'],
  },
  { number: 12, text: 'GBNF grammars for all wrapped MCP tool schemas', checks: ['gbnf'] },
];

/**
 * The checks that prove each MUST for a native endpoint: it wraps no MCP tool, so the behaviours
 * about wrapped tools (3, 5: the suite's poorly described test tool) and about listing endpoints
 * as MCP tools (2) do not apply to it.
 */
const NATIVE_PROOF: Readonly<Record<number, readonly string[]>> = {
  1: ['deterministic'],
  4: ['native-announce'],
  6: ['native-call'],
  7: ['native-refusals'],
  8: ['signatures'],
  9: ['signatures', 'native-announce', 'native-call'],
  10: ['signatures', 'native-call'],
  11: ['native-announce'],
  12: ['gbnf'],
};

/** One mandatory behaviour's verdict. */
export interface MustVerdict {
  number: number;
  text: string;
  checks: readonly string[];
  /** `not applicable`: the native profile, for a behaviour about wrapped MCP tools. */
  status: 'proven' | 'failed' | 'not run' | 'not applicable';
}

/** One optional behaviour's verdict. */
export interface OptionalVerdict {
  behaviour: string;
  /** `failed`: an optional check found the behaviour there, but wrong. */
  status: 'present' | 'absent' | 'failed' | 'not probed';
  how: string;
}

/** Everything a run produced. */
export interface SuiteReport {
  suite: string;
  target: { mode: string; profile: Profile; adapter: string };
  passed: boolean;
  durationMs: number;
  checks: CheckResult[];
  musts: MustVerdict[];
  optional: OptionalVerdict[];
}

/**
 * The checks `--only` selects of a profile's (all when `only` is empty); throws naming the known
 * ones. Without a profile (before the target is found), any check of either profile is known.
 */
export function selectChecks(only: readonly string[], profile?: Profile): Check[] {
  const known = profile === undefined ? ALL_CHECKS : checksOf(profile);
  for (const name of only) {
    if (!known.some((c) => c.name === name)) {
      throw new Error(
        `--only ${name}: expected one of ${known.map((c) => c.name).join(', ')}${profile ? ` (the ${profile} profile's checks)` : ''}`,
      );
    }
  }
  return known.filter((c) => only.length === 0 || only.includes(c.name));
}

/** Runs the selected checks against an open target. */
export async function runSuite(
  target: Target,
  checks: readonly Check[],
  onResult: (result: CheckResult) => void = () => undefined,
): Promise<Omit<SuiteReport, 'durationMs'>> {
  const facts = new SharedFacts(target);
  const results: CheckResult[] = [];
  for (const number of RUN_ORDER) {
    const check = checks.find((c) => c.number === number);
    if (!check) continue;
    const must = MUSTS.filter((m) =>
      (target.profile === 'native' ? (NATIVE_PROOF[m.number] ?? []) : m.checks).includes(check.name),
    ).map((m) => m.number);
    const result = await runCheck(check, target, facts, must);
    results.push(result);
    onResult(result);
  }
  results.sort((a, b) => a.number - b.number);
  const native = target.profile === 'native';
  const musts = MUSTS.map((base) => {
    const must = native ? { ...base, checks: NATIVE_PROOF[base.number] ?? [] } : base;
    const relevant = results.filter((r) => must.checks.includes(r.name));
    const status: MustVerdict['status'] =
      must.checks.length === 0
        ? 'not applicable'
        : relevant.length < must.checks.length
          ? 'not run'
          : relevant.every((r) => r.status === 'pass')
            ? 'proven'
            : 'failed';
    return { ...must, status };
  });
  const optional: OptionalVerdict[] = [
    _probed('MCP resources and prompts translation', results),
    _probed('Delegated identity', results),
    {
      behaviour: 'Schema refresh intervals',
      status: 'not probed',
      how: 'needs a server whose tools change during the run',
    },
    {
      behaviour: 'Managed service deployment model',
      status: 'not probed',
      how: 'a deployment choice, not visible on the wire',
    },
    { behaviour: 'DevServer bundle', status: 'not probed', how: 'a distribution, not visible on the wire' },
  ];
  return {
    suite: '@xprotocol/conformance',
    target: { mode: target.mode, profile: target.profile, adapter: target.adapter.ed25519 },
    passed: results.every((r) => r.status !== 'fail') && results.length === checks.length,
    checks: results,
    musts,
    optional,
  };
}

/** An optional behaviour's verdict from the optional checks that probe it. */
function _probed(behaviour: string, results: readonly CheckResult[]): OptionalVerdict {
  const probes = results.filter(
    (r) => r.optional && CHECKS.find((c) => c.name === r.name)?.optional === behaviour,
  );
  const how = `checks ${CHECKS.filter((c) => c.optional === behaviour)
    .map((c) => c.name)
    .join(', ')}`;
  if (probes.length === 0) return { behaviour, status: 'not probed', how: `not selected: ${how}` };
  const status: OptionalVerdict['status'] = probes.some((r) => r.status === 'fail')
    ? 'failed'
    : probes.some((r) => r.status === 'pass')
      ? 'present'
      : 'absent';
  return { behaviour, status, how };
}
