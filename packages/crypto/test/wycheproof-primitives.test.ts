/**
 * HKDF-SHA256, HMAC-SHA256 and ChaCha20 on both cipher backends, driven by Wycheproof
 * (C2SP/wycheproof testvectors_v1, Apache-2.0, vendored in testdata/vectors, see testdata/SOURCES.md) and RFC 8439.
 */
import { describe, expect, it } from 'vitest';
import { bytesToHex, type CipherBackend, CryptoError, hexToBytes, nobleCipher } from '../src/index.js';
import { nodeCipher } from '../src/node.js';
import { loadVectors as load } from './_testdata.js';

interface Suite<G> {
  numberOfTests: number;
  testGroups: G[];
}
interface HkdfCase {
  tcId: number;
  comment: string;
  ikm: string;
  salt: string;
  info: string;
  size: number;
  okm: string;
  result: 'valid' | 'invalid';
}
interface MacCase {
  tcId: number;
  key: string;
  msg: string;
  tag: string;
  result: 'valid' | 'invalid';
}
interface AeadCase {
  tcId: number;
  key: string;
  iv: string;
  aad: string;
  msg: string;
  ct: string;
  tag: string;
  result: 'valid' | 'invalid';
  flags: string[];
}

const backends: CipherBackend[] = [nobleCipher, nodeCipher];
const hkdf = load<Suite<{ tests: HkdfCase[] }>>('hkdf_sha256_test.json');
const hmac = load<Suite<{ tagSize: number; tests: MacCase[] }>>('hmac_sha256_test.json');
const aead = load<Suite<{ ivSize: number; tests: AeadCase[] }>>('chacha20_poly1305_test.json');

describe.each(backends)('$name backend', (backend) => {
  it('HKDF-SHA256: every Wycheproof case (extract then expand)', () => {
    let seen = 0;
    for (const group of hkdf.testGroups) {
      for (const tc of group.tests) {
        seen++;
        const id = `hkdf_sha256_test.json tcId ${tc.tcId} (${tc.comment})`;
        const prk = backend.hkdfExtract(hexToBytes(tc.salt), hexToBytes(tc.ikm));
        if (tc.result === 'valid') {
          expect(bytesToHex(backend.hkdfExpand(prk, hexToBytes(tc.info), tc.size)), id).toBe(tc.okm);
        } else {
          // The only invalid cases ask for more than 255 × 32 bytes (SizeTooLarge).
          expect(tc.size, id).toBeGreaterThan(255 * 32);
          expect(() => backend.hkdfExpand(prk, hexToBytes(tc.info), tc.size), id).toThrow(CryptoError);
        }
      }
    }
    expect(seen).toBe(hkdf.numberOfTests);
  });

  it('HMAC-SHA256: every Wycheproof case, truncated tags compared on their prefix', () => {
    let seen = 0;
    for (const group of hmac.testGroups) {
      for (const tc of group.tests) {
        seen++;
        const id = `hmac_sha256_test.json tcId ${tc.tcId} (tagSize ${group.tagSize})`;
        const full = backend.hmacSha256(hexToBytes(tc.key), hexToBytes(tc.msg));
        const matches = bytesToHex(full.subarray(0, group.tagSize / 8)) === tc.tag;
        expect(matches, id).toBe(tc.result === 'valid');
      }
    }
    expect(seen).toBe(hmac.numberOfTests);
  });

  it('HMAC over several parts equals HMAC over their concatenation', () => {
    const key = hexToBytes('0b'.repeat(20));
    const whole = backend.hmacSha256(key, new TextEncoder().encode('Hi There'));
    const parts = backend.hmacSha256(key, new TextEncoder().encode('Hi '), new TextEncoder().encode('There'));
    // RFC 4231 §4.2, test case 1.
    expect(bytesToHex(whole)).toBe('b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7');
    expect(parts).toEqual(whole);
  });

  it('ChaCha20 keystream: the ciphertext of every valid 96-bit-nonce Wycheproof ChaCha20-Poly1305 case', () => {
    // RFC 8439 §2.8: the AEAD encrypts with ChaCha20 starting at block counter 1 (block 0 makes
    // the Poly1305 key). Our chacha20 starts at counter 0, so encrypting 64 zero bytes followed
    // by the message yields block 0 and then exactly the AEAD ciphertext.
    let checked = 0;
    for (const group of aead.testGroups) {
      if (group.ivSize !== 96) continue;
      for (const tc of group.tests) {
        if (tc.result !== 'valid') continue;
        const msg = hexToBytes(tc.msg);
        const input = new Uint8Array(64 + msg.length);
        input.set(msg, 64);
        const out = backend.chacha20(hexToBytes(tc.key), hexToBytes(tc.iv), input);
        expect(bytesToHex(out.subarray(64)), `chacha20_poly1305_test.json tcId ${tc.tcId}`).toBe(tc.ct);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('ChaCha20 refuses the nonce sizes of the InvalidNonceSize cases', () => {
    let checked = 0;
    for (const group of aead.testGroups) {
      if (group.ivSize === 96) continue;
      for (const tc of group.tests) {
        expect(
          () => backend.chacha20(hexToBytes(tc.key), hexToBytes(tc.iv), hexToBytes(tc.msg)),
          `chacha20_poly1305_test.json tcId ${tc.tcId} (ivSize ${group.ivSize})`,
        ).toThrow(/expected a ChaCha20 nonce as 12 bytes/);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('ChaCha20: RFC 8439 §2.4.2 (counter 1) and Appendix A.2 test vector #1 (counter 0)', () => {
    // RFC 8439 §2.4.2, "Example and Test Vector for the ChaCha20 Cipher".
    const key = hexToBytes('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
    const nonce = hexToBytes('000000000000004a00000000');
    const sunscreen = new TextEncoder().encode(
      "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.",
    );
    const input = new Uint8Array(64 + sunscreen.length);
    input.set(sunscreen, 64);
    expect(bytesToHex(backend.chacha20(key, nonce, input).subarray(64))).toBe(
      '6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b' +
        'f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8' +
        '07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736' +
        '5af90bbf74a35be6b40b8eedf2785e42874d',
    );
    // RFC 8439 Appendix A.2, test vector #1: zero key, zero nonce, counter 0, 64 zero bytes.
    expect(bytesToHex(backend.chacha20(new Uint8Array(32), new Uint8Array(12), new Uint8Array(64)))).toBe(
      '76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7' +
        'da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586',
    );
  });

  it('SHA-256 of several parts and randomBytes lengths', () => {
    // FIPS 180-2 example "abc".
    const abc = backend.sha256(new TextEncoder().encode('a'), new TextEncoder().encode('bc'));
    expect(bytesToHex(abc)).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(backend.randomBytes(32)).toHaveLength(32);
    expect(backend.randomBytes(32)).not.toEqual(backend.randomBytes(32));
  });
});

it('both backends produce the same bytes for the same inputs', () => {
  const key = nobleCipher.randomBytes(32);
  const nonce = nobleCipher.randomBytes(12);
  const data = nobleCipher.randomBytes(1000);
  expect(nodeCipher.chacha20(key, nonce, data)).toEqual(nobleCipher.chacha20(key, nonce, data));
  expect(nodeCipher.hkdfExpand(key, nonce, 76)).toEqual(nobleCipher.hkdfExpand(key, nonce, 76));
  expect(nodeCipher.hkdfExtract(nonce, data)).toEqual(nobleCipher.hkdfExtract(nonce, data));
});
