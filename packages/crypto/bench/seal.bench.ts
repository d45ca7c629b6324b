/**
 * Sealed events per second, noble vs node:crypto, in the same run (vitest bench prints ops/s and
 * the ratio within each group): sign+seal (conversation key, NIP-44 v2 encryption, id, Ed25519
 * signature) and verify+open (shape, id, signature, tags, conversation key, MAC, decryption) of a
 * typical call — a 1 KiB JSON payload — and of a 1 MiB payload (version 3).
 */
import { bench, describe } from 'vitest';
import {
  conversationKey,
  type EnvelopeBackends,
  hexToBytes,
  identityFromSecretKeys,
  nobleCipher,
  nobleSignatures,
  openEvent,
  type SealInput,
  sealEvent,
} from '../src/index.js';
import { nodeCipher, nodeSignatures } from '../src/node.js';

const noble: EnvelopeBackends = { signatures: nobleSignatures, cipher: nobleCipher };
const node: EnvelopeBackends = { signatures: nodeSignatures, cipher: nodeCipher };
const alice = identityFromSecretKeys({
  ed25519: hexToBytes('01'.repeat(32)),
  x25519: hexToBytes('02'.repeat(32)),
});
const bob = identityFromSecretKeys({
  ed25519: hexToBytes('03'.repeat(32)),
  x25519: hexToBytes('04'.repeat(32)),
});

const call: SealInput = {
  kind: 'com.test.fs.read_text_file',
  payload: {
    path: '/srv/data/reports/2026/q1/summary.md',
    encoding: 'utf-8',
    head: 200,
    note: 'lorem ipsum dolor sit amet '.repeat(34),
  },
  created_at: 1_700_000_000,
  expiration: 1_700_000_030,
};
const big: SealInput = {
  kind: 'com.test.fs.read_text_file.result',
  plaintext: 'r'.repeat(1 << 20),
  created_at: 1_700_000_000,
};
const sealedCall = sealEvent(call, alice, bob.keys, node);
const sealedBig = sealEvent(big, alice, bob.keys, node);
for (const event of [sealedCall, sealedBig]) {
  if (openEvent(event, bob, noble).plaintext.length === 0) throw new Error('bench event does not open');
}

describe('sign + seal, 1 KiB JSON payload', () => {
  bench('node', () => {
    sealEvent(call, alice, bob.keys, node);
  });
  bench('noble', () => {
    sealEvent(call, alice, bob.keys, noble);
  });
});

describe('verify + open, 1 KiB JSON payload', () => {
  bench('node', () => {
    openEvent(sealedCall, bob, node);
  });
  bench('noble', () => {
    openEvent(sealedCall, bob, noble);
  });
});

describe('conversation key (X25519 + HKDF-Extract)', () => {
  bench('node', () => {
    conversationKey(
      bob.x25519.secretKey,
      alice.x25519.publicKey,
      bob.ed25519.publicKey,
      alice.ed25519.publicKey,
      nodeCipher,
    );
  });
  bench('noble', () => {
    conversationKey(
      bob.x25519.secretKey,
      alice.x25519.publicKey,
      bob.ed25519.publicKey,
      alice.ed25519.publicKey,
      nobleCipher,
    );
  });
});

describe('sign + seal, 1 MiB payload (version 3)', () => {
  bench('node', () => {
    sealEvent(big, alice, bob.keys, node);
  });
  bench('noble', () => {
    sealEvent(big, alice, bob.keys, noble);
  });
});

describe('verify + open, 1 MiB payload (version 3)', () => {
  bench('node', () => {
    openEvent(sealedBig, bob, node);
  });
  bench('noble', () => {
    openEvent(sealedBig, bob, noble);
  });
});
