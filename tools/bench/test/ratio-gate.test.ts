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
/**
 * CPU the control adapter spins per HTTP request: far above what the limits allow (the adapter adds
 * about 2.6 ms, supergateway about 2 ms), so load on the machine cannot bring it under them.
 */
const CONTROL_SLOWDOWN_MS = 30;
const CONTROL = 'gateway.stdio.c1.added:control/supergateway';
const ADAPTER = 'gateway.stdio.c1.added:adapter/supergateway';

/** One measurement of every ratio the gate checks, and the control's. */
async function measure(): Promise<Record<string, number>> {
  const gateway = await gatewaySuite({ ...options, only: 'stdio', controlSlowdownMs: CONTROL_SLOWDOWN_MS });
  const xp = await xpSuite(options);
  const relay = await relaySuite(options);
  for (const table of [gateway, xp, relay].flatMap((suite) => suite.tables)) console.log(textTable(table));
  return { ...gateway.ratios, ...xp.ratios, ...relay.ratios };
}

test('ratios against the same-run baselines stay within the gate, and the slowed control does not', async () => {
  let measured = await measure();
  let verdicts = checkRatios(measured, limits);
  if (verdicts.some((v) => !v.ok)) {
    // A burst of load on a shared machine can push one run over; a real regression fails twice.
    // Each ratio keeps its better measurement, the control its worse (it must be caught anyway).
    console.log(`first run over the gate, measuring again:\n${formatVerdicts(verdicts)}`);
    const again = await measure();
    measured = Object.fromEntries(
      Object.entries(measured).map(([name, value]) => [
        name,
        name === CONTROL ? Math.max(value, again[name] ?? value) : Math.min(value, again[name] ?? value),
      ]),
    );
    verdicts = checkRatios(measured, limits);
  }
  console.log(formatVerdicts(verdicts));
  expect(
    verdicts.filter((v) => !v.ok),
    formatVerdicts(verdicts),
  ).toEqual([]);
  // The control is the real adapter plus a fixed CPU cost per request; the same limits must catch it.
  const control = checkRatios(
    { [ADAPTER]: measured[CONTROL]! },
    { limits: { [ADAPTER]: limits.limits[ADAPTER]! } },
  );
  console.log(`control (${CONTROL_SLOWDOWN_MS} ms CPU per request):\n${formatVerdicts(control)}`);
  expect(
    control.every((v) => !v.ok),
    `the gate let the slowed control through:\n${formatVerdicts(control)}`,
  ).toBe(true);
});
