/**
 * Every case of testdata/vectors/xp-relay-frames.json and xp-relay-filters.json (docs/protocol.md
 * §9) run against this package's relay over loopback WebSocket: the limits cases against a second
 * relay started with the limits they require.
 * @module
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Relay,
  type RelayFiltersFile,
  type RelayFramesFile,
  runRelayFilterVectors,
  runRelayFrameCase,
  startRelay,
} from '../src/index.js';

const vectors = new URL('../../../testdata/vectors/', import.meta.url);
const frames = JSON.parse(readFileSync(new URL('xp-relay-frames.json', vectors), 'utf8')) as RelayFramesFile;
const filters = JSON.parse(
  readFileSync(new URL('xp-relay-filters.json', vectors), 'utf8'),
) as RelayFiltersFile;
const LIMITS = { events_per_minute_per_key: 2, max_stored_bytes_per_key: 2048 };

let relay: Relay;
let limited: Relay;
beforeAll(async () => {
  relay = await startRelay({ port: 0 });
  limited = await startRelay({
    port: 0,
    eventsPerMinutePerKey: LIMITS.events_per_minute_per_key,
    maxStoredBytesPerKey: LIMITS.max_stored_bytes_per_key,
  });
});
afterAll(async () => {
  await relay?.close();
  await limited?.close();
});

describe('relay frame vectors (docs/protocol.md §9.1–§9.3)', () => {
  it('names every group the conformance suite checks', () => {
    expect(new Set(frames.cases.map((c) => c.group))).toEqual(
      new Set([
        'framing',
        'event-checks',
        'freshness',
        'duplicates',
        'subscriptions',
        'filters',
        'reasons',
        'limits',
      ]),
    );
  });

  for (const testCase of frames.cases) {
    it(`${testCase.group}: ${testCase.name}`, async () => {
      const target = testCase.requires ? limited : relay;
      const result = await runRelayFrameCase(frames, testCase, { url: target.url, limits: LIMITS });
      expect(result).toMatchObject({ status: 'pass' });
    });
  }
});

describe('relay filter vectors (docs/protocol.md §9.3)', () => {
  it('returns the stored events of every filter in order, and delivers the live ones', async () => {
    const results = await runRelayFilterVectors(filters, { url: relay.url });
    expect(results.filter((result) => result.status !== 'pass')).toEqual([]);
    expect(results).toHaveLength(filters.stored.length + filters.live.length);
  });
});
