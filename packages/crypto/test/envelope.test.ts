/**
 * Sealed events (docs/protocol.md §6.3): round trips across backends, and every refusal.
 */
import { describe, expect, it } from 'vitest';
import {
  type CipherBackend,
  CryptoError,
  conversationKey,
  decryptVerifiedEvent,
  type EnvelopeBackends,
  encryptPayload,
  eventRecipient,
  generateIdentity,
  getTag,
  MAX_EVENT_BYTES,
  MAX_PLAINTEXT_BYTES,
  nobleCipher,
  nobleSignatures,
  openEvent,
  openEventJson,
  parseEvent,
  type SignatureBackend,
  sealEvent,
  signEvent,
  verifyEvent,
  type XpEvent,
} from '../src/index.js';
import { nodeCipher, nodeSignatures } from '../src/node.js';

const noble: EnvelopeBackends = { signatures: nobleSignatures, cipher: nobleCipher };
const node: EnvelopeBackends = { signatures: nodeSignatures, cipher: nodeCipher };
const alice = generateIdentity(node);
const bob = generateIdentity(node);
const eve = generateIdentity(node);
const NOW = 1_767_225_600;

function thrown(fn: () => unknown): CryptoError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CryptoError);
    return error as CryptoError;
  }
  throw new Error('expected a CryptoError, got success');
}

/** Re-signs a modified copy of `event` as `signer` (what a sender that misbehaves can do). */
function resign(event: XpEvent, change: Partial<XpEvent>, signer = alice): XpEvent {
  const { kind, tags, content, created_at } = { ...event, ...change };
  return signEvent({ kind, tags, content, created_at }, signer.ed25519.secretKey, nodeSignatures);
}

describe.each([
  ['noble seals, noble opens', noble, noble],
  ['noble seals, node opens', noble, node],
  ['node seals, noble opens', node, noble],
  ['node seals, node opens', node, node],
])('%s', (_name, sealWith, openWith) => {
  it('round-trips a JSON payload with the documented tags', () => {
    const payload = { path: 'docs/readme.md', encoding: 'utf-8', n: [1, 2.5, null, true], ü: '🎉' };
    const event = sealEvent(
      { kind: 'com.test.fs.read_text_file', payload, created_at: NOW, expiration: NOW + 30 },
      alice,
      bob.keys,
      sealWith,
    );
    expect(event.tags).toEqual([
      ['p', bob.keys.ed25519],
      ['x25519', alice.keys.x25519],
      ['expiration', String(NOW + 30)],
    ]);
    expect(event.pubkey).toBe(alice.keys.ed25519);
    expect(event.content).not.toContain('docs/readme.md');
    expect(parseEvent(JSON.parse(JSON.stringify(event)))).toEqual(event);
    const opened = openEventJson(JSON.parse(JSON.stringify(event)), bob, openWith);
    expect(opened.payload).toEqual(payload);
    expect(opened.sender).toEqual(alice.keys);
    expect(opened.version).toBe(2);
    expect(opened.event.id).toBe(event.id);
  });

  it('answers the other way with an e tag, and carries large (version 3) payloads', () => {
    const request = sealEvent(
      { kind: 'com.test.echo', plaintext: 'ping', created_at: NOW },
      alice,
      bob.keys,
      sealWith,
    );
    const { sender } = openEvent(request, bob, openWith);
    const big = 'x'.repeat(200_000);
    const response = sealEvent(
      {
        kind: 'com.test.echo.result',
        plaintext: big,
        replyTo: request.id,
        created_at: NOW,
        tags: [['t', 'demo']],
      },
      bob,
      sender,
      sealWith,
    );
    expect(getTag(response, 'e')).toBe(request.id);
    expect(response.tags.map((tag) => tag[0])).toEqual(['p', 'x25519', 'e', 't']);
    const opened = openEvent(response, alice, openWith);
    expect(opened.plaintext).toBe(big);
    expect(opened.version).toBe(3);
  });

  it('refuses tampered content, tags and signatures', () => {
    const event = sealEvent(
      { kind: 'com.test.echo', plaintext: 'secret', created_at: NOW },
      alice,
      bob.keys,
      sealWith,
    );
    // Changed on the way: the id no longer matches.
    const flipped = `${event.content.slice(0, 60)}${event.content[60] === 'A' ? 'B' : 'A'}${event.content.slice(61)}`;
    expect(thrown(() => openEvent({ ...event, content: flipped }, bob, openWith)).message).toMatch(
      /^event\.id: expected/,
    );
    const otherTag = { ...event, tags: [event.tags[0]!, ['x25519', eve.keys.x25519]] };
    expect(thrown(() => openEvent(otherTag, bob, openWith)).code).toBe('INVALID_EVENT');
    const sig = `${event.sig.slice(0, -1)}${event.sig.endsWith('0') ? '1' : '0'}`;
    expect(thrown(() => openEvent({ ...event, sig }, bob, openWith)).code).toBe('INVALID_SIGNATURE');
    // Changed and re-signed by the sender itself: the MAC or the key no longer fits.
    const resealed = resign(event, { content: flipped });
    expect(thrown(() => openEvent(resealed, bob, openWith)).code).toMatch(
      /^(DECRYPT_FAILED|INVALID_PAYLOAD)$/,
    );
    const wrongKey = resign(event, { tags: [event.tags[0]!, ['x25519', eve.keys.x25519]] });
    const error = thrown(() => openEvent(wrongKey, bob, openWith));
    expect(error.code).toBe('DECRYPT_FAILED');
    expect(error.message).toMatch(/^invalid MAC/);
  });

  it('refuses an event for another recipient, and one re-signed by a third party', () => {
    const event = sealEvent(
      { kind: 'com.test.echo', plaintext: 'for bob', created_at: NOW },
      alice,
      bob.keys,
      sealWith,
    );
    expect(thrown(() => openEvent(event, eve, openWith)).message).toBe(
      `event.tags: the event is addressed to ${bob.keys.ed25519}, not to this identity (${eve.keys.ed25519})`,
    );
    // Eve copies Alice's ciphertext into an event of her own (her own X25519 key would not
    // decrypt it either): the conversation key is bound to both Ed25519 identities, so the
    // payload does not open as coming from Eve.
    const stolen = resign(
      event,
      {
        tags: [
          ['p', bob.keys.ed25519],
          ['x25519', alice.keys.x25519],
        ],
      },
      eve,
    );
    expect(thrown(() => openEvent(stolen, bob, openWith)).code).toBe('DECRYPT_FAILED');
  });
});

describe('malformed envelopes', () => {
  const base = sealEvent({ kind: 'com.test.echo', plaintext: 'hi', created_at: NOW }, alice, bob.keys, node);
  const cases: [string, (readonly string[])[], RegExp][] = [
    ['no p tag', [base.tags[1]!], /expected exactly one "p" tag, got 0/],
    ['two p tags', [base.tags[0]!, base.tags[0]!, base.tags[1]!], /expected exactly one "p" tag, got 2/],
    ['no x25519 tag', [base.tags[0]!], /expected exactly one "x25519" tag, got 0/],
    ['a malformed x25519 key', [base.tags[0]!, ['x25519', 'x25519:abc']], /"x25519" tag's key as "x25519:"/],
    [
      'an ed25519 key in the x25519 tag',
      [base.tags[0]!, ['x25519', alice.keys.ed25519]],
      /"x25519" tag's key/,
    ],
    ['an x25519 tag with a third element', [base.tags[0]!, [...base.tags[1]!, 'extra']], /got 3 elements/],
  ];
  it.each(cases)('refuses %s', (_name, tags, message) => {
    const error = thrown(() => openEvent(resign(base, { tags }), bob, node));
    expect(error.code).toBe('INVALID_EVENT');
    expect(error.message).toMatch(message);
  });

  it('refuses a low-order X25519 key in the tag', () => {
    const low = `x25519:${'00'.repeat(32)}`;
    expect(
      thrown(() => openEvent(resign(base, { tags: [base.tags[0]!, ['x25519', low]] }), bob, node)).code,
    ).toBe('INVALID_KEY');
  });

  it('refuses what is not an event, naming the field', () => {
    expect(thrown(() => openEvent({ ...base, kind: 'no spaces' }, bob, node)).message).toMatch(
      /^event\.kind/,
    );
    expect(thrown(() => openEvent('text', bob, node)).code).toBe('INVALID_EVENT');
  });
});

describe('sealing', () => {
  it('refuses reserved tags, bad reply ids, bad recipients and non-JSON payloads', () => {
    const seal =
      (input: Parameters<typeof sealEvent>[0], to = bob.keys) =>
      () =>
        sealEvent(input, alice, to, node);
    expect(seal({ kind: 'k', plaintext: 'x', tags: [['e', 'a'.repeat(64)]] })).toThrow(
      /tags\[0\]: the "e" tag is set by sealEvent/,
    );
    expect(seal({ kind: 'k', plaintext: 'x', tags: [['p', bob.keys.ed25519]] })).toThrow(/the "p" tag/);
    expect(seal({ kind: 'k', plaintext: 'x', replyTo: 'abc' })).toThrow(/replyTo: expected an event id/);
    expect(
      seal({ kind: 'k', plaintext: 'x' }, { ed25519: bob.keys.ed25519, x25519: 'x25519:abc123...' }),
    ).toThrow(/expected "x25519:" followed by 64 lowercase hex digits/);
    expect(seal({ kind: 'k', payload: { when: Number.NaN } })).toThrow(CryptoError);
    expect(seal({ kind: 'k', payload: undefined })).toThrow(CryptoError);
    expect(seal({ kind: 'k' })).toThrow(/exactly one of `payload`/);
    expect(seal({ kind: 'k', payload: 1, plaintext: '1' })).toThrow(/exactly one of `payload`/);
    expect(seal({ kind: 'not a kind', plaintext: 'x' })).toThrow(/event\.kind/);
  });

  it('seals the largest plaintext under the 4 MiB event limit, and refuses one byte more naming the limit', () => {
    const longKind = `com.example.${'k'.repeat(200)}`;
    const event = sealEvent(
      { kind: longKind, plaintext: 'a'.repeat(MAX_PLAINTEXT_BYTES), expiration: NOW + 30, created_at: NOW },
      alice,
      bob.keys,
      node,
    );
    const size = Buffer.byteLength(JSON.stringify(event));
    expect(size).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    expect(parseEvent(JSON.parse(JSON.stringify(event))).id).toBe(event.id);
    expect(openEvent(event, bob, node).plaintext).toHaveLength(MAX_PLAINTEXT_BYTES);
    const error = thrown(() =>
      sealEvent({ kind: longKind, plaintext: 'a'.repeat(MAX_PLAINTEXT_BYTES + 1) }, alice, bob.keys, node),
    );
    expect(error.code).toBe('INVALID_PAYLOAD');
    expect(error.message).toMatch(/over the limit of 3,080,192 bytes/);
  });

  it('payloads are canonical JSON, so the same payload seals to the same plaintext', () => {
    const a = sealEvent({ kind: 'k', payload: { b: 1, a: [true] } }, alice, bob.keys, node);
    const b = sealEvent({ kind: 'k', payload: { a: [true], b: 1 } }, alice, bob.keys, node);
    expect(openEvent(a, bob, node).plaintext).toBe('{"a":[true],"b":1}');
    expect(openEvent(b, bob, node).plaintext).toBe('{"a":[true],"b":1}');
  });

  it('openEventJson refuses a plaintext that is not JSON', () => {
    const event = sealEvent({ kind: 'k', plaintext: 'not json' }, alice, bob.keys, node);
    expect(thrown(() => openEventJson(event, bob, node)).message).toMatch(/^payload: expected JSON/);
  });

  it('eventRecipient reads the p tag for routing', () => {
    const event = sealEvent({ kind: 'k', plaintext: 'x' }, alice, bob.keys, node);
    expect(eventRecipient(event)).toBe(bob.keys.ed25519);
    expect(eventRecipient({ tags: [] })).toBeUndefined();
  });

  it('the content is exactly the documented payload under the conversation key', () => {
    const nonce = new Uint8Array(32).fill(7);
    const event = sealEvent({ kind: 'k', plaintext: 'exact', created_at: NOW }, alice, bob.keys, {
      ...node,
      nonce,
    });
    const key = conversationKey(
      alice.x25519.secretKey,
      bob.x25519.publicKey,
      alice.ed25519.publicKey,
      bob.ed25519.publicKey,
    );
    expect(event.content).toBe(encryptPayload('exact', key, { nonce }));
  });
});

it('backends are interchangeable per call (type check of mixed options)', () => {
  const mixed: { signatures: SignatureBackend; cipher: CipherBackend } = {
    signatures: nobleSignatures,
    cipher: nodeCipher,
  };
  const event = sealEvent({ kind: 'k', plaintext: 'mixed' }, alice, bob.keys, mixed);
  expect(openEvent(event, bob, { signatures: nodeSignatures, cipher: nobleCipher }).plaintext).toBe('mixed');
});

describe('the bridge flow', () => {
  it('an xp.error answers a request: e tag, sealed to the requester, opened after verifyEvent', () => {
    const request = sealEvent(
      { kind: 'com.test.fs.write_file', payload: { path: '/x' } },
      alice,
      bob.keys,
      node,
    );
    const verdict = verifyEvent(request, nodeSignatures);
    if (!verdict.ok) throw new Error(verdict.message);
    // … dedupe, freshness, kind lookup, authority and rate limit happen here; then decrypt:
    const opened = decryptVerifiedEvent(verdict.event, bob, node);
    expect(JSON.parse(opened.plaintext)).toEqual({ path: '/x' });
    const error = sealEvent(
      {
        kind: 'xp.error',
        payload: {
          code: 'AUTHORIZATION_INSUFFICIENT',
          message: 'Insufficient capability for this operation',
        },
        replyTo: opened.event.id,
      },
      bob,
      opened.sender,
      node,
    );
    expect(getTag(error, 'e')).toBe(request.id);
    const answer = openEventJson(error, alice, noble);
    expect(answer.payload).toEqual({
      code: 'AUTHORIZATION_INSUFFICIENT',
      message: 'Insufficient capability for this operation',
    });
    expect(answer.sender).toEqual(bob.keys);
  });

  it('decryptVerifiedEvent checks the tags and the MAC too', () => {
    const event = sealEvent({ kind: 'k', plaintext: 'x' }, alice, bob.keys, node);
    expect(thrown(() => decryptVerifiedEvent(event, eve, node)).message).toMatch(/is addressed to/);
    const altered = { ...event, content: encryptPayload('y', new Uint8Array(32).fill(1)) };
    expect(thrown(() => decryptVerifiedEvent(altered, bob, node)).code).toBe('DECRYPT_FAILED');
  });
});
