/**
 * docs/protocol.md §8.2 "Encryption vectors" must stay true: this test reads every vector block of
 * that subsection out of the document and checks it against the code on both backends — and the
 * conversation key once more against the formula as §5 writes it, with bare primitives.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  calcPaddedLength,
  conversationKey,
  conversationSalt,
  decryptPayload,
  type EnvelopeBackends,
  encryptPayload,
  hexToBytes,
  identityFromSecretKeys,
  messageKeys,
  nobleCipher,
  nobleSignatures,
  openEvent,
  type SealInput,
  sealEvent,
  type XpEvent,
} from '../src/index.js';
import { nodeCipher, nodeSignatures } from '../src/node.js';

const DOC = readFileSync(resolve(import.meta.dirname, '../../../docs/protocol.md'), 'utf8');

function vector<T>(name: string): T {
  const marker = `<!-- vector: ${name} -->`;
  const at = DOC.indexOf(marker);
  if (at < 0) throw new Error(`docs/protocol.md has no "${marker}"`);
  const block = /^\s*```json\n([\s\S]*?)\n```/.exec(DOC.slice(at + marker.length));
  if (!block) throw new Error(`docs/protocol.md: no JSON block after "${marker}"`);
  return JSON.parse(block[1]!) as T;
}

interface Party {
  ed25519_secret: string;
  x25519_secret: string;
  ed25519: string;
  x25519: string;
}
interface PayloadVector {
  conversation_key: string;
  nonce: string;
  plaintext_bytes: number;
  padded_length: number;
  chacha_key: string;
  chacha_nonce: string;
  hmac_key: string;
}
interface SealedVector {
  sender: 'alice' | 'bob';
  recipient: 'alice' | 'bob';
  input: SealInput;
  nonce: string;
  plaintext: string;
  event: XpEvent;
}

const parties = vector<Record<'alice' | 'bob', Party>>('encryption-keys');
const conv = vector<{
  between: ['alice', 'bob'];
  x25519_shared_secret: string;
  salt: string;
  conversation_key: string;
}>('conversation-key');
const v2 = vector<PayloadVector & { plaintext: string; payload: string }>('payload-v2');
const v3 = vector<
  PayloadVector & {
    pattern: string;
    repeat: number;
    plaintext_sha256: string;
    payload_length: number;
    payload_start: string;
    payload_end: string;
    payload_sha256: string;
  }
>('payload-v3');
const sealed = [vector<SealedVector>('sealed-request'), vector<SealedVector>('sealed-response')];
const sha256Hex = (text: string) => bytesToHex(nobleCipher.sha256(new TextEncoder().encode(text)));

describe.each<[string, EnvelopeBackends]>([
  ['noble', { signatures: nobleSignatures, cipher: nobleCipher }],
  ['node', { signatures: nodeSignatures, cipher: nodeCipher }],
])('%s backends', (_name, backends) => {
  const cipher = backends.cipher!;
  const identity = (who: 'alice' | 'bob') =>
    identityFromSecretKeys(
      { ed25519: hexToBytes(parties[who].ed25519_secret), x25519: hexToBytes(parties[who].x25519_secret) },
      backends,
    );
  const alice = identity('alice');
  const bob = identity('bob');

  it('encryption-keys: the key strings are the ones the secrets derive, and §8.1 agrees', () => {
    expect(alice.keys).toEqual({ ed25519: parties.alice.ed25519, x25519: parties.alice.x25519 });
    expect(bob.keys).toEqual({ ed25519: parties.bob.ed25519, x25519: parties.bob.x25519 });
    const signatureKeys = vector<Record<'alice' | 'bob', { secret: string; public: string }>>('keys');
    expect(signatureKeys.alice).toEqual({
      secret: parties.alice.ed25519_secret,
      public: parties.alice.ed25519,
    });
    expect(signatureKeys.bob).toEqual({ secret: parties.bob.ed25519_secret, public: parties.bob.ed25519 });
  });

  it('conversation-key: both directions, and the §5 formula written out', () => {
    const ab = conversationKey(
      alice.x25519.secretKey,
      bob.x25519.publicKey,
      alice.ed25519.publicKey,
      bob.ed25519.publicKey,
      cipher,
    );
    const ba = conversationKey(
      bob.x25519.secretKey,
      alice.x25519.publicKey,
      bob.ed25519.publicKey,
      alice.ed25519.publicKey,
      cipher,
    );
    expect(bytesToHex(ab)).toBe(conv.conversation_key);
    expect(bytesToHex(ba)).toBe(conv.conversation_key);
    expect(bytesToHex(conversationSalt(bob.ed25519.publicKey, alice.ed25519.publicKey, cipher))).toBe(
      conv.salt,
    );
    // By hand: alice's Ed25519 key (03a1…) sorts before bob's (29ac…).
    const shared = cipher.x25519SharedSecret(alice.x25519.secretKey, bob.x25519.publicKey);
    expect(bytesToHex(shared)).toBe(conv.x25519_shared_secret);
    const salt = cipher.sha256(
      new TextEncoder().encode('xp/1/conv'),
      alice.ed25519.publicKey,
      bob.ed25519.publicKey,
    );
    expect(bytesToHex(salt)).toBe(conv.salt);
    expect(bytesToHex(cipher.hmacSha256(salt, shared))).toBe(conv.conversation_key);
  });

  it('payload-v2: message keys, padding, payload and back', () => {
    const key = hexToBytes(v2.conversation_key);
    expect(v2.conversation_key).toBe(conv.conversation_key);
    const keys = messageKeys(key, hexToBytes(v2.nonce), 2, cipher);
    expect(bytesToHex(keys.chachaKey)).toBe(v2.chacha_key);
    expect(bytesToHex(keys.chachaNonce)).toBe(v2.chacha_nonce);
    expect(bytesToHex(keys.hmacKey)).toBe(v2.hmac_key);
    expect(new TextEncoder().encode(v2.plaintext).length).toBe(v2.plaintext_bytes);
    expect(calcPaddedLength(v2.plaintext_bytes)).toBe(v2.padded_length);
    expect(encryptPayload(v2.plaintext, key, { nonce: hexToBytes(v2.nonce), backend: cipher })).toBe(
      v2.payload,
    );
    expect(decryptPayload(v2.payload, key, { backend: cipher })).toBe(v2.plaintext);
  });

  it('payload-v3: message keys (info = 0x03 ‖ nonce), padding, payload digest and back', () => {
    const key = hexToBytes(v3.conversation_key);
    const plaintext = v3.pattern.repeat(v3.repeat);
    expect(new TextEncoder().encode(plaintext).length).toBe(v3.plaintext_bytes);
    expect(v3.plaintext_bytes).toBeGreaterThan(65_535);
    expect(sha256Hex(plaintext)).toBe(v3.plaintext_sha256);
    expect(calcPaddedLength(v3.plaintext_bytes)).toBe(v3.padded_length);
    const nonce = hexToBytes(v3.nonce);
    const keys = messageKeys(key, nonce, 3, cipher);
    expect(bytesToHex(keys.chachaKey)).toBe(v3.chacha_key);
    expect(bytesToHex(keys.chachaNonce)).toBe(v3.chacha_nonce);
    expect(bytesToHex(keys.hmacKey)).toBe(v3.hmac_key);
    const okm = cipher.hkdfExpand(key, Uint8Array.from([3, ...nonce]), 76);
    expect(bytesToHex(okm)).toBe(v3.chacha_key + v3.chacha_nonce + v3.hmac_key);
    const payload = encryptPayload(plaintext, key, { nonce, backend: cipher });
    expect(payload.length).toBe(v3.payload_length);
    expect(payload.slice(0, 64)).toBe(v3.payload_start);
    expect(payload.slice(-64)).toBe(v3.payload_end);
    expect(sha256Hex(payload)).toBe(v3.payload_sha256);
    expect(decryptPayload(payload, key, { backend: cipher })).toBe(plaintext);
  });

  it.each(sealed.map((s, i) => [i === 0 ? 'sealed-request' : 'sealed-response', s] as const))(
    '%s: seals to the exact event and opens to the plaintext',
    (_vector, tc) => {
      const sender = tc.sender === 'alice' ? alice : bob;
      const recipient = tc.recipient === 'alice' ? alice : bob;
      const event = sealEvent(tc.input, sender, recipient.keys, { ...backends, nonce: hexToBytes(tc.nonce) });
      expect(event).toEqual(tc.event);
      const opened = openEvent(tc.event, recipient, backends);
      expect(opened.plaintext).toBe(tc.plaintext);
      expect(JSON.parse(opened.plaintext)).toEqual(tc.input.payload);
      expect(opened.sender).toEqual(sender.keys);
    },
  );

  it('sealed-response answers sealed-request', () => {
    const [request, response] = sealed as [SealedVector, SealedVector];
    expect(response.event.tags).toContainEqual(['e', request.event.id]);
    expect(response.input.replyTo).toBe(request.event.id);
  });
});
