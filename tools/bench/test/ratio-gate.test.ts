// The ratio gate of `npm test`: short runs of the gateway, XProtocol and relay suites against
// their baselines in the same run; each ratio must stay under its reference in gate.json times the
// margin. A deliberately slowed adapter (peers/slowdown.cjs) races beside the real one as a
// control: the gate must fail it, or the gate has no teeth.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { checkRatios, formatVerdicts, type GateLimits } from '../src/gate.js';
import { textTable } from '../src/report.js';
import type { SuiteOptions } from '../src/suite.js';
import { gatewaySuite } from '../src/suites/gateway.js';
import { relaySuite } from '../src/suites/relay.js';
import { xpSuite } from '../src/suites/xp-round-trip.js';

const limits = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'gate.json'), 'utf8')) as GateLimits;
const options: SuiteOptions = { size: 'gate', log: () => {} };
/** CPU the control adapter spins per HTTP request. */
const CONTROL_SLOWDOWN_MS = 10;

test('ratios against the same-run baselines stay within the gate, and the slowed control does not', async () => {
  const gateway = await gatewaySuite({ ...options, only: 'stdio', controlSlowdownMs: CONTROL_SLOWDOWN_MS });
  const xp = await xpSuite(options);
  const relay = await relaySuite(options);
  for (const table of [gateway, xp, relay].flatMap((suite) => suite.tables)) console.log(textTable(table));
  const measured = { ...gateway.ratios, ...xp.ratios, ...relay.ratios };
  const verdicts = checkRatios(measured, limits);
  console.log(formatVerdicts(verdicts));
  expect(
    verdicts.filter((v) => !v.ok),
    formatVerdicts(verdicts),
  ).toEqual([]);
  // The control is the real adapter plus a fixed CPU cost per request; the same limits must catch it.
  const control = checkRatios(
    {
      'gateway.stdio.c1.added:adapter/supergateway': measured['gateway.stdio.c1.added:control/supergateway']!,
    },
    {
      limits: {
        'gateway.stdio.c1.added:adapter/supergateway':
          limits.limits['gateway.stdio.c1.added:adapter/supergateway']!,
      },
    },
  );
  console.log(`control (${CONTROL_SLOWDOWN_MS} ms CPU per request):\n${formatVerdicts(control)}`);
  expect(
    control.every((v) => !v.ok),
    `the gate let the slowed control through:\n${formatVerdicts(control)}`,
  ).toBe(true);
});
