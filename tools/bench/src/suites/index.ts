/** Every suite by id, in the order `pnpm bench` runs them. */
import type { SuiteOptions, SuiteResult } from '../suite.js';
import { chainSuite } from './chain.js';
import { gatewaySuite } from './gateway.js';
import { memorySuite } from './memory.js';
import { relaySuite } from './relay.js';
import { startupSuite } from './startup.js';
import { xpSuite } from './xp-round-trip.js';

export const SUITES: Record<string, (options: SuiteOptions) => Promise<SuiteResult>> = {
  gateway: gatewaySuite,
  xp: xpSuite,
  relay: relaySuite,
  memory: memorySuite,
  startup: startupSuite,
  chain: chainSuite,
};
