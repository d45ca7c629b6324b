// testdata/vectors/xp-announce.json (docs/protocol.md §10.3) against the announce reader: each
// payload is signed as an xp.endpoint.announce (its x25519 tag equal to the payload's x25519) and
// read with readAnnounce; each set of announces of one key goes through newestAnnounce.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  canonicalJson,
  createEventTemplate,
  generateIdentity,
  signEvent,
  type XpEvent,
} from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { describe, expect, it } from 'vitest';
import { newestAnnounce, readAnnounce } from '../src/index.js';

const FILE = 'xp-announce.json';
const vectors = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../testdata/vectors', FILE), 'utf8'),
) as {
  description: string;
  cases: {
    name: string;
    payload: Record<string, unknown>;
    expect: { verdict: 'accepted' } | { verdict: 'refused'; field: string };
  }[];
  newest: { name: string; announces: { created_at: number; id: string }[]; expect_index: number }[];
};
const endpoint = generateIdentity();

function announce(payload: Record<string, unknown>): XpEvent {
  const key = typeof payload.x25519 === 'string' ? payload.x25519 : 'none';
  return signEvent(
    createEventTemplate({
      kind: 'xp.endpoint.announce',
      content: canonicalJson(payload),
      tags: [['x25519', key]],
      created_at: 1_767_225_600,
      expiration: 1_767_226_500,
    }),
    endpoint.ed25519.secretKey,
    nodeSignatures,
  );
}

describe(`testdata/vectors/${FILE}`, () => {
  it('names its section and covers both verdicts', () => {
    expect(vectors.description).toMatch(/docs\/protocol\.md §10\.3/);
    expect(vectors.cases.filter((c) => c.expect.verdict === 'refused').length).toBeGreaterThan(10);
  });

  it.each(vectors.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const read = readAnnounce(announce(c.payload), nodeSignatures);
    if (c.expect.verdict === 'accepted') {
      expect(read.ok, read.ok ? '' : read.reason).toBe(true);
    } else {
      expect(read.ok).toBe(false);
      if (!read.ok)
        expect(read.reason.startsWith(`announce payload ${c.expect.field}`), read.reason).toBe(true);
    }
  });

  it.each(vectors.newest.map((c) => [c.name, c] as const))('newest: %s', (_name, c) => {
    const events = c.announces.map((a) => ({ ...a, kind: 'xp.endpoint.announce' }) as XpEvent);
    expect(newestAnnounce(events)).toBe(events[c.expect_index]);
    expect(newestAnnounce([...events].reverse())).toBe(events[c.expect_index]);
  });
});
