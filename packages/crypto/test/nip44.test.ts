/**
 * NIP-44 v2 on both cipher backends, driven by the official vectors: paulmillr/nip44
 * `nip44.vectors.json` (MIT; its sha256 matches the NIP-44 spec) and the nbd-wtf/nostr-tools copy
 * (Unlicense), both vendored in testdata/vectors (see testdata/SOURCES.md).
 *
 * Not loaded on purpose: `v2.valid.get_conversation_key` and `v2.invalid.get_conversation_key`.
 * They derive the conversation key with secp256k1 ECDH and the salt "nip44-v2"; XProtocol derives
 * it with X25519 and an identity-bound salt (docs/protocol.md §5), so those cases do not apply.
 * Everything above the conversation key is NIP-44 v2 unchanged, and every such case runs here.
 */
import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  type CipherBackend,
  CryptoError,
  calcPaddedLength,
  decryptPayload,
  encryptPayload,
  hexToBytes,
  MAX_V2_PLAINTEXT_BYTES,
  messageKeys,
  nobleCipher,
} from '../src/index.js';
import { nodeCipher } from '../src/node.js';
import { loadVectors } from './_testdata.js';

interface EncryptDecryptCase {
  conversation_key: string;
  nonce: string;
  plaintext: string;
  payload: string;
}
interface LongCase {
  conversation_key: string;
  nonce: string;
  pattern?: string;
  letter?: string;
  repeat: number;
  plaintext_sha256?: string;
  payload_sha256?: string;
  payload_checksum_sha256?: string;
}
interface InvalidDecryptCase extends EncryptDecryptCase {
  note: string;
}
interface Nip44Vectors {
  v2: {
    valid: {
      get_message_keys: {
        conversation_key: string;
        keys: { nonce: string; chacha_key: string; chacha_nonce: string; hmac_key: string }[];
      };
      calc_padded_len: [number, number][];
      encrypt_decrypt: EncryptDecryptCase[];
      encrypt_decrypt_long_msg: LongCase[];
    };
    invalid: { encrypt_msg_lengths: number[]; decrypt: InvalidDecryptCase[] };
  };
}

const files: [string, Nip44Vectors][] = ['nip44.vectors.json', 'nostr-tools.nip44.vectors.json'].map(
  (name) => [name, loadVectors<Nip44Vectors>(name)],
);
const sha256Hex = (text: string) => bytesToHex(nobleCipher.sha256(new TextEncoder().encode(text)));

// What each invalid-decrypt note means, and the reason our error must give for it.
const REASONS: Record<string, RegExp> = {
  'unknown encryption version': /^unknown encryption version/,
  'unknown encryption version 0': /^unknown encryption version 0\b/,
  'invalid base64': /^invalid base64/,
  'invalid MAC': /^invalid MAC/,
  'invalid padding': /^invalid padding/,
};
function reasonFor(note: string): RegExp {
  if (note.startsWith('invalid payload length')) return /^invalid payload length/;
  const reason = REASONS[note];
  if (!reason) throw new Error(`unknown note ${JSON.stringify(note)} in the vectors: classify it`);
  return reason;
}

describe.each<CipherBackend>([nobleCipher, nodeCipher])('$name backend', (backend) => {
  describe.each(files)('%s', (file, vectors) => {
    const { valid, invalid } = vectors.v2;

    it('get_message_keys: every nonce', () => {
      const key = hexToBytes(valid.get_message_keys.conversation_key);
      expect(valid.get_message_keys.keys.length).toBeGreaterThan(0);
      for (const [i, tc] of valid.get_message_keys.keys.entries()) {
        const keys = messageKeys(key, hexToBytes(tc.nonce), 2, backend);
        const id = `${file} v2.valid.get_message_keys.keys[${i}]`;
        expect(bytesToHex(keys.chachaKey), id).toBe(tc.chacha_key);
        expect(bytesToHex(keys.chachaNonce), id).toBe(tc.chacha_nonce);
        expect(bytesToHex(keys.hmacKey), id).toBe(tc.hmac_key);
      }
    });

    it('calc_padded_len: every pair', () => {
      for (const [i, [length, padded]] of valid.calc_padded_len.entries()) {
        expect(calcPaddedLength(length), `${file} v2.valid.calc_padded_len[${i}] (${length})`).toBe(padded);
      }
    });

    it('encrypt_decrypt: encrypts to the exact payload and decrypts it back', () => {
      for (const [i, tc] of valid.encrypt_decrypt.entries()) {
        const id = `${file} v2.valid.encrypt_decrypt[${i}]`;
        const key = hexToBytes(tc.conversation_key);
        const payload = encryptPayload(tc.plaintext, key, { nonce: hexToBytes(tc.nonce), backend });
        expect(payload, id).toBe(tc.payload);
        expect(decryptPayload(tc.payload, key, { backend }), id).toBe(tc.plaintext);
      }
    });

    it('encrypt_decrypt_long_msg: plaintext and payload checksums', () => {
      for (const [i, tc] of valid.encrypt_decrypt_long_msg.entries()) {
        const id = `${file} v2.valid.encrypt_decrypt_long_msg[${i}]`;
        const plaintext = (tc.pattern ?? tc.letter ?? '').repeat(tc.repeat);
        expect(plaintext.length, id).toBeGreaterThan(0);
        if (tc.plaintext_sha256) expect(sha256Hex(plaintext), id).toBe(tc.plaintext_sha256);
        const key = hexToBytes(tc.conversation_key);
        const payload = encryptPayload(plaintext, key, { nonce: hexToBytes(tc.nonce), backend });
        // The nostr-tools copy leaves its checksum empty; its case still has to round-trip.
        const checksum = tc.payload_sha256 ?? tc.payload_checksum_sha256;
        if (checksum) expect(sha256Hex(payload), id).toBe(checksum);
        expect(payload.startsWith('A'), id).toBe(true); // version byte 2
        expect(decryptPayload(payload, key, { backend }), id).toBe(plaintext);
      }
    });

    it('invalid.encrypt_msg_lengths: refused by the version 2 layer', () => {
      const key = hexToBytes(valid.get_message_keys.conversation_key);
      for (const [i, length] of invalid.encrypt_msg_lengths.entries()) {
        const id = `${file} v2.invalid.encrypt_msg_lengths[${i}] (${length})`;
        expect(() => encryptPayload('x'.repeat(length), key, { version: 2, backend }), id).toThrow(
          CryptoError,
        );
        if (length > MAX_V2_PLAINTEXT_BYTES) {
          expect(() => encryptPayload('x'.repeat(length), key, { version: 2, backend }), id).toThrow(
            /version 2 carries at most 65,535/,
          );
        }
      }
    });

    it('invalid.decrypt: every payload refused, with the reason its note names', () => {
      expect(invalid.decrypt.length).toBeGreaterThan(0);
      for (const [i, tc] of invalid.decrypt.entries()) {
        const id = `${file} v2.invalid.decrypt[${i}] (${tc.note})`;
        let error: unknown;
        try {
          decryptPayload(tc.payload, hexToBytes(tc.conversation_key), { backend });
        } catch (caught) {
          error = caught;
        }
        expect(error, id).toBeInstanceOf(CryptoError);
        expect((error as CryptoError).message, id).toMatch(reasonFor(tc.note));
        expect((error as CryptoError).code, id).toBe(
          tc.note === 'invalid MAC' ? 'DECRYPT_FAILED' : 'INVALID_PAYLOAD',
        );
      }
    });
  });
});
