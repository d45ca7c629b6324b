/**
 * Events signed and verified per second, noble vs node:crypto, in the same run (vitest bench
 * prints ops/s and the ratio within each group). The event is a typical call: a `p` tag, an
 * `expiration` tag and 1 KiB of content. Verification includes shape, size and id recomputation.
 */
import { bench, describe } from 'vitest';
import {
  eventByteLength,
  MAX_EVENT_BYTES,
  nobleSignatures,
  parseKey,
  signEvent,
  verifyEvent,
} from '../src/index.js';
import { nodeSignatures } from '../src/node.js';

const secret = Uint8Array.from({ length: 32 }, (_, i) => i);
const recipient = `ed25519:${'29'.repeat(32)}`;
const template = {
  created_at: 1_700_000_000,
  kind: 'com.test.fs.read_text_file',
  tags: [
    ['p', recipient],
    ['expiration', '1700000030'],
  ],
  content: 'x'.repeat(1024),
};
const event = signEvent(template, secret, nodeSignatures);
if (!verifyEvent(event, nobleSignatures).ok) throw new Error('bench event does not verify');
const publicKey = parseKey(event.pubkey, 'ed25519').bytes;
const idBytes = Uint8Array.from(Buffer.from(event.id, 'hex'));
const sig = Uint8Array.from(Buffer.from(event.sig, 'hex'));

describe('signEvent (1 KiB content)', () => {
  bench('node', () => {
    signEvent(template, secret, nodeSignatures);
  });
  bench('noble', () => {
    signEvent(template, secret, nobleSignatures);
  });
});

describe('verifyEvent (shape + size + id + signature)', () => {
  bench('node', () => {
    if (!verifyEvent(event, nodeSignatures).ok) throw new Error('verify failed');
  });
  bench('noble', () => {
    if (!verifyEvent(event, nobleSignatures).ok) throw new Error('verify failed');
  });
});

describe('Ed25519 verify of 32 id bytes (pre-check + equation)', () => {
  bench('node', () => {
    if (!nodeSignatures.verify(sig, idBytes, publicKey)) throw new Error('verify failed');
  });
  bench('noble', () => {
    if (!nobleSignatures.verify(sig, idBytes, publicKey)) throw new Error('verify failed');
  });
});

const large = signEvent(
  { ...template, content: 'x'.repeat(MAX_EVENT_BYTES - eventByteLength({ ...event, content: '' })) },
  secret,
  nodeSignatures,
);

describe('verifyEvent of a 4 MiB event (the size limit)', () => {
  bench('node', () => {
    if (!verifyEvent(large, nodeSignatures).ok) throw new Error('verify failed');
  });
  bench('noble', () => {
    if (!verifyEvent(large, nobleSignatures).ok) throw new Error('verify failed');
  });
});
