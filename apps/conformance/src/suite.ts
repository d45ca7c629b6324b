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
import { promptsResources } from './checks/prompts-resources.js';
import { qualityScore } from './checks/quality-score.js';
import { semantic } from './checks/semantic.js';
import { signatures } from './checks/signatures.js';
import { trust } from './checks/trust.js';
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

/** Run order: the restart of the determinism check goes last, so it disturbs nothing else. */
const RUN_ORDER = [2, 3, 4, 5, 9, 11, 12, 6, 13, 14, 10, 8, 7, 1];

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

/** One mandatory behaviour's verdict. */
export interface MustVerdict {
  number: number;
  text: string;
  checks: readonly string[];
  status: 'proven' | 'failed' | 'not run';
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
  target: { mode: string; adapter: string };
  passed: boolean;
  durationMs: number;
  checks: CheckResult[];
  musts: MustVerdict[];
  optional: OptionalVerdict[];
}

/** The checks `--only` selects (all when `only` is empty); throws naming the known ones. */
export function selectChecks(only: readonly string[]): Check[] {
  for (const name of only) {
    if (!CHECKS.some((c) => c.name === name)) {
      throw new Error(`--only ${name}: expected one of ${CHECKS.map((c) => c.name).join(', ')}`);
    }
  }
  return CHECKS.filter((c) => only.length === 0 || only.includes(c.name));
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
    const must = MUSTS.filter((m) => m.checks.includes(check.name)).map((m) => m.number);
    const result = await runCheck(check, target, facts, must);
    results.push(result);
    onResult(result);
  }
  results.sort((a, b) => a.number - b.number);
  const musts = MUSTS.map((must) => {
    const relevant = results.filter((r) => must.checks.includes(r.name));
    const status: MustVerdict['status'] =
      relevant.length < must.checks.length
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
    target: { mode: target.mode, adapter: target.adapter.ed25519 },
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
