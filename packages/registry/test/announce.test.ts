import { descriptionQualityScore } from '@xprotocol/semantic';
import { translateSource } from '@xprotocol/translate';
import { describe, expect, it } from 'vitest';
import {
  buildAnnouncePayload,
  publicUrl,
  Registry,
  RegistryError,
  serializeAnnouncePayload,
} from '../src/index.js';
import { recorded, tool, translate } from './_fixtures.js';

const X25519 = `x25519:${'0f'.repeat(32)}`;
const KEY = `ed25519:${'1a'.repeat(32)}`;

const CRM_TOOLS = [
  tool('handle_thing', ''),
  tool('process_record', 'Handles the thing'),
  tool(
    'get_opportunity_by_stage',
    'Get the sales opportunities at a given pipeline stage. Use when the agent needs deals by stage.',
  ),
];
const crm = translateSource({
  name: 'crm',
  namespace: 'com.salesforce.crm',
  tools: CRM_TOOLS,
  prompts: [{ name: 'summary', description: 'Summarize an account' }],
  adapterVersion: '0.1.0',
});

async function fixture() {
  const registry = new Registry();
  const fs = recorded('modelcontextprotocol__server-filesystem.json');
  await registry.refreshSource('filesystem', translate('filesystem', 'com.acme.filesystem', fs.tools));
  await registry.refreshSource('crm', crm.contracts);
  return registry;
}

const INPUT = {
  display_name: 'Acme Corp XProtocol Adapter',
  adapter_version: '0.1.0',
  x25519: X25519,
  relays: ['wss://relay.xprotocol.ai', 'wss://relay2.xprotocol.ai'],
  mcp_sources: [
    {
      name: 'filesystem',
      transport: 'stdio' as const,
      namespace: 'com.acme.filesystem',
      url: 'https://ignored.example',
    },
    {
      name: 'crm',
      transport: 'sse' as const,
      url: 'https://bot:s3cret@mcp.salesforce.com/sse?token=abc#frag',
      namespace: 'com.salesforce.crm',
      refused: crm.refused,
    },
  ],
  xprotocol_sources: [
    { name: 'weather-service', endpoint: 'xp://weather.example.com', tool_count: 3 },
    { name: 'chat', key: KEY, tool_count: 0 },
  ],
};

describe('xp.endpoint.announce payload (docs/protocol.md §10.3)', () => {
  it('discloses sources, counts and low-quality schemas', async () => {
    const payload = buildAnnouncePayload(INPUT, await fixture());
    expect(Object.keys(payload)).toEqual([
      'display_name',
      'adapter_version',
      'x25519',
      'relays',
      'mcp_sources',
      'xprotocol_sources',
      'counts',
      'low_quality_schemas',
    ]);
    expect(payload.mcp_sources).toEqual([
      {
        name: 'filesystem',
        transport: 'stdio',
        namespace: 'com.acme.filesystem',
        tool_count: 14,
        prompt_count: 0,
      },
      {
        name: 'crm',
        transport: 'sse',
        url: 'https://mcp.salesforce.com/sse',
        namespace: 'com.salesforce.crm',
        tool_count: 2,
        prompt_count: 1,
      },
    ]);
    expect(payload.xprotocol_sources).toEqual([
      { name: 'weather-service', endpoint: 'xp://weather.example.com', tool_count: 3 },
      { name: 'chat', key: KEY, tool_count: 0 },
    ]);
    expect(payload.relays).toEqual(INPUT.relays);
    expect(payload.counts).toEqual({
      mcp_sources: 2,
      xprotocol_sources: 2,
      schemas: 17,
      tools: 16,
      prompts: 1,
      low_quality_schemas: payload.low_quality_schemas.length,
    });
    const flagged = payload.low_quality_schemas.map((l) => l.kind);
    expect(flagged).not.toContain('com.salesforce.crm.get_opportunity_by_stage');
    // published but flagged (0.2: not below the floor, below the threshold)
    const processRecord = payload.low_quality_schemas.find(
      (l) => l.kind === 'com.salesforce.crm.process_record',
    );
    expect(processRecord?.description_quality_score).toBe(
      descriptionQualityScore('Handles the thing', { name: 'process_record' }).score,
    );
    expect(processRecord?.issue).toMatch(/^Description too vague for reliable agent discovery/);
    // refused by translateSource below the floor: listed, saying why it is missing
    const handle = payload.low_quality_schemas.find((l) => l.kind === 'com.salesforce.crm.handle_thing');
    expect(handle).toMatchObject({
      description_quality_score: 0,
      issue: expect.stringMatching(
        /^Not published: description quality score 0 is below the publication floor/,
      ),
    });
    expect([...flagged].sort()).toEqual(flagged);
  });
  it('lists flagged tools (description linting, tool pinning) with their score, or 0 when not published', async () => {
    const registry = await fixture();
    const flaggedInput = {
      ...INPUT,
      mcp_sources: [
        {
          ...INPUT.mcp_sources[0]!,
          flagged: [
            {
              kind: 'com.acme.filesystem.read_text_file',
              issue: 'Quarantined change: its server changed the definition',
            },
            {
              kind: 'com.acme.filesystem.hidden',
              issue: 'Quarantined: not published: description linting flagged it',
            },
          ],
        },
        INPUT.mcp_sources[1]!,
      ],
    };
    const payload = buildAnnouncePayload(flaggedInput, registry);
    const read = payload.low_quality_schemas.find((l) => l.kind === 'com.acme.filesystem.read_text_file');
    expect(read?.issue).toBe('Quarantined change: its server changed the definition');
    expect(read?.description_quality_score).toBeGreaterThan(0);
    expect(payload.low_quality_schemas.find((l) => l.kind === 'com.acme.filesystem.hidden')).toEqual({
      kind: 'com.acme.filesystem.hidden',
      description_quality_score: 0,
      issue: 'Quarantined: not published: description linting flagged it',
    });
  });
  it('lists a refused schema although the registry does not hold it', async () => {
    const registry = await fixture();
    expect(registry.get('com.salesforce.crm.handle_thing')).toBeUndefined();
    expect(crm.refused.map((r) => r.code)).toEqual(['LOW_QUALITY']);
  });
  it('never discloses credentials', async () => {
    const text = serializeAnnouncePayload(buildAnnouncePayload(INPUT, await fixture()));
    expect(text).not.toMatch(/s3cret|token=abc|bot:|frag|ignored\.example/);
    expect(publicUrl('wss://u:p@relay.example/path?k=v', ['wss:'])).toBe('wss://relay.example/path');
    expect(publicUrl('wss://relay.example', ['wss:'])).toBe('wss://relay.example');
    expect(publicUrl('ftp://x', ['wss:'])).toBeUndefined();
    expect(publicUrl('not a url', ['wss:'])).toBeUndefined();
  });
  it('uses the scoring seam and the per-source thresholds', async () => {
    const registry = await fixture();
    const none = buildAnnouncePayload(INPUT, registry, {
      score: () => ({ score: 1, findings: [] }) as never,
    });
    // every published schema scores 1 now; only the one refused for quality remains listed
    expect(none.low_quality_schemas.map((l) => l.kind)).toEqual(['com.salesforce.crm.handle_thing']);
    const strict = buildAnnouncePayload(
      {
        ...INPUT,
        mcp_sources: INPUT.mcp_sources.map((s) => ({
          ...s,
          description_quality_threshold: 1,
          description_quality_floor: 0,
        })),
      },
      registry,
    );
    expect(strict.low_quality_schemas.length).toBeGreaterThan(
      payloadCount(buildAnnouncePayload(INPUT, registry)),
    );
  });
  it('serializes canonically (RFC 8785)', async () => {
    const payload = buildAnnouncePayload(INPUT, await fixture());
    const text = serializeAnnouncePayload(payload);
    expect(text.startsWith('{"adapter_version":"0.1.0","counts":{')).toBe(true);
    expect(JSON.parse(text)).toEqual(payload);
  });
  it('refuses what it cannot disclose correctly, saying what was expected', async () => {
    const registry = await fixture();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ x25519: 'x25519:abc' }, /x25519: expected "x25519:" followed by 64 lowercase hex digits/],
      [{ display_name: ' ' }, /display_name: expected 1 to 256 characters/],
      [{ relays: ['https://not-ws.example'] }, /relays\[0\]: expected a ws:\/\/ or wss:\/\/ URL/],
      [
        { mcp_sources: [{ name: 'x', transport: 'tcp', namespace: 'a.b' }] },
        /mcp_sources\[0\]\.transport: expected "stdio" \| "sse" \| "streamable_http", got "tcp"/,
      ],
      [{ mcp_sources: [{ name: 'x', transport: 'stdio', namespace: 'a..b' }] }, /namespace/],
      [
        { xprotocol_sources: [{ name: 'x', key: 'ed25519:abc123...', tool_count: 1 }] },
        /key: expected "ed25519:"/,
      ],
      [
        { xprotocol_sources: [{ name: 'x', endpoint: 'https://x', tool_count: 1 }] },
        /endpoint: expected xp:\/\/host/,
      ],
    ];
    for (const [patch, message] of cases) {
      expect(() => buildAnnouncePayload({ ...INPUT, ...patch } as typeof INPUT, registry)).toThrow(message);
      expect(() => buildAnnouncePayload({ ...INPUT, ...patch } as typeof INPUT, registry)).toThrow(
        RegistryError,
      );
    }
  });
});

function payloadCount(p: { low_quality_schemas: unknown[] }): number {
  return p.low_quality_schemas.length;
}
