// The announce event: signing, the canonical content, reading it back, and the published vector
// (test/vectors/announce.json, fixed keys; docs/protocol.md §10.3 shows the same example).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  canonicalJson,
  createEventTemplate,
  generateIdentity,
  identityFromSecretKeys,
  nobleSignatures,
  signEvent,
} from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { describe, expect, it } from 'vitest';
import {
  type AnnouncePayload,
  parseAnnouncePayload,
  RegistryError,
  readAnnounce,
  serializeAnnouncePayload,
  signAnnounce,
} from '../src/index.js';

const VECTOR = JSON.parse(readFileSync(join(import.meta.dirname, 'vectors/announce.json'), 'utf8')) as {
  secret_keys: { ed25519: string; x25519: string };
  public_keys: { ed25519: string; x25519: string };
  created_at: number;
  ttl_seconds: number;
  payload: AnnouncePayload;
  content: string;
  event: {
    id: string;
    pubkey: string;
    created_at: number;
    kind: string;
    tags: string[][];
    content: string;
    sig: string;
  };
};
const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
const vectorIdentity = () =>
  identityFromSecretKeys({
    ed25519: hex(VECTOR.secret_keys.ed25519),
    x25519: hex(VECTOR.secret_keys.x25519),
  });

describe('announce vector (test/vectors/announce.json)', () => {
  it('signAnnounce reproduces the vector event byte for byte on both backends', () => {
    for (const signatures of [nobleSignatures, nodeSignatures]) {
      const event = signAnnounce(VECTOR.payload, vectorIdentity(), {
        nowSeconds: VECTOR.created_at,
        ttlSeconds: VECTOR.ttl_seconds,
        signatures,
      });
      expect(event, 'announce vector event').toEqual(VECTOR.event);
    }
  });

  it('the content is the RFC 8785 form of the payload and the id follows docs/protocol.md §2.3', () => {
    expect(serializeAnnouncePayload(VECTOR.payload)).toBe(VECTOR.content);
    expect(VECTOR.event.content).toBe(VECTOR.content);
    const e = VECTOR.event;
    const preimage = canonicalJson(['xp/1/event', e.pubkey, e.created_at, e.kind, e.tags, e.content]);
    expect(createHash('sha256').update(preimage, 'utf8').digest('hex'), 'announce vector id').toBe(e.id);
  });

  it('docs/protocol.md §10.3 shows the same vector', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../../docs/protocol.md'), 'utf8');
    const start = doc.indexOf('### 10.3 The announce');
    const next = doc.indexOf('\n### ', start + 1);
    const section = doc.slice(start, next === -1 ? undefined : next);
    const blocks = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map(
      (m) => JSON.parse(m[1] as string) as unknown,
    );
    expect(blocks, 'the payload and the event of the announce vector').toEqual([
      VECTOR.payload,
      VECTOR.event,
    ]);
  });

  it('readAnnounce accepts the vector and returns its keys and payload', () => {
    const read = readAnnounce(VECTOR.event, nodeSignatures);
    expect(read).toEqual({
      ok: true,
      announce: { keys: VECTOR.public_keys, payload: VECTOR.payload, event: VECTOR.event },
    });
  });
});

describe('readAnnounce refuses, saying why', () => {
  const identity = generateIdentity();
  const payload: AnnouncePayload = { ...VECTOR.payload, x25519: identity.keys.x25519 };
  const options = { nowSeconds: 1767225600, ttlSeconds: 900, signatures: nodeSignatures };

  it('a tampered event (the id no longer matches)', () => {
    const event = signAnnounce(payload, identity, options);
    const read = readAnnounce({ ...event, content: event.content.replace('Acme', 'Evil') }, nodeSignatures);
    expect(read).toMatchObject({ ok: false, reason: expect.stringMatching(/^not a valid event \(id\)/) });
  });

  it('another kind, content that is not a payload, a tag that disagrees', () => {
    const sign = (kind: string, content: string, tags: string[][]) =>
      signEvent(
        createEventTemplate({ kind, content, tags, created_at: 1767225600 }),
        identity.ed25519.secretKey,
        nodeSignatures,
      );
    const content = serializeAnnouncePayload(payload);
    expect(
      readAnnounce(sign('xp.schema.catalog', content, [['x25519', payload.x25519]]), nodeSignatures),
    ).toEqual({
      ok: false,
      reason: 'kind: expected "xp.endpoint.announce", got "xp.schema.catalog"',
    });
    expect(readAnnounce(sign('xp.endpoint.announce', '{"display_name":"B"}', []), nodeSignatures)).toEqual({
      ok: false,
      reason:
        'announce payload adapter_version: expected a SemVer 2.0.0 version of at most 64 characters, got null',
    });
    expect(readAnnounce(sign('xp.endpoint.announce', 'not json', []), nodeSignatures)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^content: expected the JSON of an announce payload/),
    });
    expect(readAnnounce(sign('xp.endpoint.announce', content, []), nodeSignatures)).toEqual({
      ok: false,
      reason: `x25519 tag: expected the payload's ${payload.x25519}, got null`,
    });
  });

  it('signAnnounce refuses a payload whose x25519 is not the signer’s', () => {
    expect(() => signAnnounce(VECTOR.payload, identity, options)).toThrow(RegistryError);
    expect(() => signAnnounce(VECTOR.payload, identity, options)).toThrow(
      /x25519: expected the signing identity's key/,
    );
  });

  it.each([
    [[], 'announce payload : expected an object, got an array'],
    [
      { ...VECTOR.payload, counts: { ...VECTOR.payload.counts, tools: -1 } },
      'announce payload counts.tools: expected a non-negative integer',
    ],
    [
      { ...VECTOR.payload, relays: [1] },
      'announce payload relays[0]: expected a ws:// or wss:// URL without credentials, query or fragment, got number',
    ],
    [
      { ...VECTOR.payload, mcp_sources: [{ name: 'x' }] },
      'announce payload mcp_sources[0].transport: expected "stdio", "sse" or "streamable_http", got null',
    ],
    [
      {
        ...VECTOR.payload,
        served_sources: [{ name: 'x', transport: 'stdio', namespace: 'a.b', tool_count: 1, prompt_count: 0 }],
      },
      'announce payload served_sources[0].transport: expected "native" or "openapi", got "stdio"',
    ],
    [
      {
        ...VECTOR.payload,
        served_sources: [
          {
            name: 'x',
            transport: 'native',
            url: 'http://127.0.0.1/',
            namespace: 'a.b',
            tool_count: 1,
            prompt_count: 0,
          },
        ],
      },
      "announce payload served_sources[0].url: a native source has no URL (it runs in the endpoint's own process)",
    ],
    [
      {
        ...VECTOR.payload,
        served_sources: [
          { name: 'x', transport: 'openapi', namespace: 'a.b', tool_count: 5, prompt_count: 0 },
        ],
      },
      `announce payload counts.tools: expected at least ${VECTOR.payload.counts.tools + 5} (the sum of mcp_sources[].tool_count and served_sources[].tool_count), got ${VECTOR.payload.counts.tools}`,
    ],
  ])('parseAnnouncePayload refuses %j', (value, reason) => {
    expect(parseAnnouncePayload(value)).toEqual({ ok: false, reason });
  });

  it('parseAnnouncePayload accepts served_sources whose tools the counts include', () => {
    const payload = {
      ...VECTOR.payload,
      served_sources: [
        {
          name: 'pets',
          transport: 'openapi',
          url: 'https://pets.example/v3',
          namespace: 'com.example.pets',
          tool_count: 2,
          prompt_count: 0,
        },
      ],
      counts: { ...VECTOR.payload.counts, tools: VECTOR.payload.counts.tools + 2 },
    };
    expect(parseAnnouncePayload(payload)).toEqual({ ok: true, payload });
  });
});
