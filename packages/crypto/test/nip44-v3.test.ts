/**
 * Version 3 payloads (plaintexts over 65,535 bytes; docs/protocol.md §6.2), the plaintext limit,
 * and round trips across backends. The format is rebuilt here from the document, step by step,
 * to check the implementation against the text rather than against itself.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { _base64Decode, _base64Encode } from '../src/_base64.js';
import {
  type CipherBackend,
  CryptoError,
  calcPaddedLength,
  decryptPayload,
  encryptPayload,
  hexToBytes,
  MAX_PLAINTEXT_BYTES,
  MAX_V2_PLAINTEXT_BYTES,
  messageKeys,
  nobleCipher,
} from '../src/index.js';
import { nodeCipher } from '../src/node.js';

const KEY = hexToBytes('8fc262099ce0d0bb9b89bac05bb9e04f9bc0090acc181fef6840ccee470371ed');
const NONCE = hexToBytes('326bcb2c943cd6bb717588c9e5a7e738edf6ed14ec5f5344caa6ef56f0b9cff7');

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** docs/protocol.md §6.2, written out independently of src/nip44.ts. */
function referenceV3(
  plaintext: Uint8Array,
  lengthPrefix: number,
  paddedLength: number,
  backend: CipherBackend,
) {
  const okm = backend.hkdfExpand(KEY, concat(Uint8Array.of(3), NONCE), 76);
  const padded = new Uint8Array(4 + paddedLength);
  new DataView(padded.buffer).setUint32(0, lengthPrefix, false);
  padded.set(plaintext, 4);
  const ciphertext = backend.chacha20(okm.subarray(0, 32), okm.subarray(32, 44), padded);
  const mac = backend.hmacSha256(okm.subarray(44, 76), NONCE, ciphertext);
  return Buffer.from(concat(Uint8Array.of(3), NONCE, ciphertext, mac)).toString('base64');
}

describe.each<CipherBackend>([nobleCipher, nodeCipher])('$name backend', (backend) => {
  it('65,535 bytes is version 2, 65,536 bytes is version 3', () => {
    const v2 = encryptPayload('x'.repeat(MAX_V2_PLAINTEXT_BYTES), KEY, { nonce: NONCE, backend });
    const v3 = encryptPayload('x'.repeat(MAX_V2_PLAINTEXT_BYTES + 1), KEY, { nonce: NONCE, backend });
    expect(Buffer.from(v2, 'base64')[0]).toBe(2);
    expect(Buffer.from(v3, 'base64')[0]).toBe(3);
    expect(decryptPayload(v3, KEY, { backend })).toBe('x'.repeat(MAX_V2_PLAINTEXT_BYTES + 1));
  });

  it('matches the format as docs/protocol.md §6.2 writes it', () => {
    const plaintext = 'é'.repeat(40_000); // 80,000 UTF-8 bytes
    const bytes = new TextEncoder().encode(plaintext);
    const expected = referenceV3(bytes, bytes.length, 81_920, backend); // chunk 131,072 / 8
    expect(encryptPayload(plaintext, KEY, { nonce: NONCE, backend })).toBe(expected);
  });

  it('message keys of version 3 differ from version 2 for the same nonce', () => {
    const v2 = messageKeys(KEY, NONCE, 2, backend);
    const v3 = messageKeys(KEY, NONCE, 3, backend);
    expect(v3.chachaKey).not.toEqual(v2.chachaKey);
    expect(v3.hmacKey).not.toEqual(v2.hmacKey);
    expect(v3.chachaKey).toEqual(
      backend.hkdfExpand(KEY, concat(Uint8Array.of(3), NONCE), 76).subarray(0, 32),
    );
  });

  it('encrypts the largest plaintext and refuses one byte more, naming the limit', () => {
    const largest = 'a'.repeat(MAX_PLAINTEXT_BYTES);
    const payload = encryptPayload(largest, KEY, { backend });
    expect(payload.length).toBe(4_107_016);
    expect(decryptPayload(payload, KEY, { backend })).toBe(largest);
    expect(() => encryptPayload(`${largest}a`, KEY, { backend })).toThrow(
      /plaintext is 3,080,193 bytes, over the limit of 3,080,192 bytes .*4 MiB event limit/,
    );
  });

  it('refuses a version 3 payload whose length prefix belongs to version 2', () => {
    // A sender that authenticates a 100-byte plaintext as version 3: the MAC is valid, the
    // padding rule is not (each plaintext has exactly one encoding).
    const forged = referenceV3(new Uint8Array(100).fill(0x61), 100, 65_536, backend);
    expect(() => decryptPayload(forged, KEY, { backend })).toThrow(
      /^invalid padding: a version 3 payload carries 65,536/,
    );
  });

  it('refuses a version 3 payload padded to the wrong size', () => {
    const bytes = new Uint8Array(70_000).fill(0x62);
    const forged = referenceV3(bytes, bytes.length, 196_608, backend);
    expect(() => decryptPayload(forged, KEY, { backend })).toThrow(
      /^invalid padding: 70,000 bytes pad to 81,924/,
    );
  });

  it('refuses a tampered version 3 payload (MAC) and a version byte changed from 2 to 3', () => {
    const payload = encryptPayload('y'.repeat(70_000), KEY, { nonce: NONCE, backend });
    const data = Buffer.from(payload, 'base64');
    data[500] = data[500]! ^ 1;
    let error: unknown;
    try {
      decryptPayload(data.toString('base64'), KEY, { backend });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CryptoError);
    expect((error as CryptoError).code).toBe('DECRYPT_FAILED');
    const v2 = Buffer.from(encryptPayload('short', KEY, { nonce: NONCE, backend }), 'base64');
    v2[0] = 3;
    expect(() => decryptPayload(v2.toString('base64'), KEY, { backend })).toThrow(
      /^invalid data length: a version 3/,
    );
  });

  it('refuses a forced version that cannot carry the length, and empty or ill-formed plaintexts', () => {
    expect(() => encryptPayload('z', KEY, { version: 3, backend })).toThrow(
      /version 3 carries 65,536 bytes or more/,
    );
    expect(() => encryptPayload('', KEY, { backend })).toThrow(/plaintext is empty/);
    expect(() => encryptPayload('a\ud800b', KEY, { backend })).toThrow(/lone UTF-16 surrogate at index 1/);
  });

  it('refuses a payload that decrypts to malformed UTF-8', () => {
    const okm = backend.hkdfExpand(KEY, NONCE, 76);
    const padded = new Uint8Array(2 + 32);
    padded.set([0, 1, 0xff]);
    const ciphertext = backend.chacha20(okm.subarray(0, 32), okm.subarray(32, 44), padded);
    const mac = backend.hmacSha256(okm.subarray(44, 76), NONCE, ciphertext);
    const payload = Buffer.from(concat(Uint8Array.of(2), NONCE, ciphertext, mac)).toString('base64');
    expect(() => decryptPayload(payload, KEY, { backend })).toThrow(/not valid UTF-8/);
  });
});

describe('padding', () => {
  it('pads version 3 by the NIP-44 rule with the chunk capped at 65,536 bytes', () => {
    expect(calcPaddedLength(65_536)).toBe(65_536); // chunk 8,192
    expect(calcPaddedLength(65_537)).toBe(81_920); // chunk 16,384
    expect(calcPaddedLength(524_289)).toBe(589_824); // chunk 131,072 / 8 capped: 65,536
    expect(calcPaddedLength(1_000_000)).toBe(1_048_576);
    expect(calcPaddedLength(2_500_000)).toBe(2_555_904);
    expect(calcPaddedLength(MAX_PLAINTEXT_BYTES)).toBe(MAX_PLAINTEXT_BYTES);
    // Never more than 25% or 64 KiB of padding above 32 bytes.
    for (let length = 33; length <= MAX_PLAINTEXT_BYTES; length = Math.ceil(length * 1.37)) {
      const padding = calcPaddedLength(length) - length;
      expect(padding, String(length)).toBeLessThan(Math.min(length / 4, 65_536) + 32);
    }
    expect(() => calcPaddedLength(0)).toThrow(/1 to 3,080,192 bytes, got 0/);
    expect(() => calcPaddedLength(MAX_PLAINTEXT_BYTES + 1)).toThrow(CryptoError);
  });
});

describe('across backends', () => {
  it("noble and node produce the same payload and open each other's payloads", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 300 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (plaintext, key, nonce) => {
          const fromNoble = encryptPayload(plaintext, key, { nonce, backend: nobleCipher });
          expect(encryptPayload(plaintext, key, { nonce, backend: nodeCipher })).toBe(fromNoble);
          expect(decryptPayload(fromNoble, key, { backend: nodeCipher })).toBe(plaintext);
          const fromNode = encryptPayload(plaintext, key, { backend: nodeCipher });
          expect(decryptPayload(fromNode, key, { backend: nobleCipher })).toBe(plaintext);
        },
      ),
      { numRuns: 100, seed: 44 },
    );
  });

  it('a large version 3 payload crosses backends', () => {
    const plaintext = JSON.stringify({
      rows: Array.from({ length: 6000 }, (_, i) => ({ i, text: `row ${i}` })),
    });
    expect(plaintext.length).toBeGreaterThan(MAX_V2_PLAINTEXT_BYTES);
    const payload = encryptPayload(plaintext, KEY, { backend: nodeCipher });
    expect(decryptPayload(payload, KEY, { backend: nobleCipher })).toBe(plaintext);
  });
});

describe('the strict base64 codec of payloads', () => {
  it('agrees with RFC 4648 (Buffer) on every length and refuses what Buffer would tolerate', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = _base64Encode(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64'));
        expect(_base64Decode(text)).toEqual(bytes);
      }),
      { numRuns: 300, seed: 4648 },
    );
    // RFC 4648 §10 test vectors.
    expect(
      ['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar'].map((t) =>
        _base64Encode(new TextEncoder().encode(t)),
      ),
    ).toEqual(['', 'Zg==', 'Zm8=', 'Zm9v', 'Zm9vYg==', 'Zm9vYmE=', 'Zm9vYmFy']);
    for (const bad of ['Zg=', 'Zh==', 'Zm9=', 'Zm 9v', 'Zm9v\n', 'Zm-_', 'Z===', '=Zm9']) {
      expect(() => _base64Decode(bad), bad).toThrow(/^invalid base64/);
    }
  });
});

describe('robustness', () => {
  it('decryptPayload throws only CryptoError on arbitrary text and on mutated payloads', () => {
    const valid = encryptPayload('hello, robustness', KEY, { nonce: NONCE });
    const outcome = (text: string) => {
      try {
        decryptPayload(text, KEY);
        return 'opened';
      } catch (error) {
        if (!(error instanceof CryptoError)) throw error;
        return error.code;
      }
    };
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        expect(['INVALID_PAYLOAD', 'DECRYPT_FAILED']).toContain(outcome(text));
      }),
      { numRuns: 300, seed: 1 },
    );
    fc.assert(
      fc.property(
        fc.nat({ max: valid.length - 1 }),
        fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=#é '),
        (at, char) => {
          const mutated = valid.slice(0, at) + char + valid.slice(at + 1);
          // Strict base64 gives every payload one text form: any other text must be refused.
          expect(outcome(mutated)).toEqual(
            mutated === valid ? 'opened' : expect.stringMatching(/^(INVALID_PAYLOAD|DECRYPT_FAILED)$/),
          );
        },
      ),
      { numRuns: 300, seed: 2 },
    );
  });
});
