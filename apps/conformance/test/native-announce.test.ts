// The native profile's announce check (src/checks/native-announce.ts) against announces made here:
// honest counts pass; the counts a native endpoint used to announce (counts.tools 0 for a catalog
// of tools) fail, naming the field; so does a catalog without quality scores.
import { createEventTemplate, generateIdentity, signEvent } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { describe, expect, it } from 'vitest';
import { runCheck, type SharedFacts } from '../src/check.js';
import { nativeAnnounce } from '../src/checks/native-announce.js';
import type { Target } from '../src/target.js';

const identity = generateIdentity({ signatures: nodeSignatures, cipher: nodeCipher });
const contract = (name: string) => ({
  kind: `demo.notes.${name}`,
  source: { mcp_server: 'demo.notes', mcp_tool: name },
  semantic: { description_quality_score: 0.7 },
});

function announce(counts: Record<string, number>) {
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    x25519: identity.keys.x25519,
    mcp_sources: [],
    xprotocol_sources: [],
    counts: { mcp_sources: 0, xprotocol_sources: 0, prompts: 0, low_quality_schemas: 0, ...counts },
    low_quality_schemas: [],
  };
  return signEvent(
    createEventTemplate({
      kind: 'xp.endpoint.announce',
      content: JSON.stringify(payload),
      tags: [['x25519', identity.keys.x25519]],
      created_at: now,
      expiration: now + 600,
    }),
    identity.ed25519.secretKey,
    nodeSignatures,
  );
}

async function check(counts: Record<string, number>, catalog: Record<string, unknown>[]) {
  const target = { adapter: identity.keys, profile: 'native' } as unknown as Target;
  const facts = {
    announce: async () => announce(counts),
    catalog: async () => catalog,
  } as unknown as SharedFacts;
  return runCheck(nativeAnnounce, target, facts);
}

describe('native-announce', () => {
  const catalog = [contract('read_note'), contract('write_note')];

  it('passes an announce whose counts match the catalog', async () => {
    const result = await check({ schemas: 2, tools: 2 }, catalog);
    expect(result.failures).toEqual([]);
    expect(result.status).toBe('pass');
  });

  it('fails counts.tools 0 for a catalog of two tools, naming the field and the number expected', async () => {
    const result = await check({ schemas: 2, tools: 0 }, catalog);
    expect(result.status).toBe('fail');
    expect(result.failures.map((f) => [f.what, f.received, f.expected])).toEqual([
      ['counts.tools is honest', 'counts.tools 0', '2 (the tools the catalog lists)'],
    ]);
  });

  it('fails a contract without a description quality score', async () => {
    const result = await check({ schemas: 1, tools: 1 }, [{ kind: 'demo.notes.x', source: {} }]);
    expect(result.failures.map((f) => f.what)).toEqual([
      'demo.notes.x publishes its description quality score',
    ]);
  });
});
