/**
 * Ed25519 under the one rule (docs/protocol.md §3) on both backends, driven by published vectors
 * (vendored in testdata/vectors, see testdata/SOURCES.md):
 * - rfc8032_ed25519.json — RFC 8032 §7.1 (via paulmillr/acvp-vectors);
 * - ed25519_test.json — C2SP/wycheproof testvectors_v1 (Apache-2.0);
 * - noble_zip215.json, noble_ed25519_edge_cases.json — paulmillr/noble-curves (MIT): ZIP-215 and
 *   "Taming the many EdDSAs" (Chalkias et al. 2020) edge cases, our must-reject / must-agree set.
 */
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { _isCanonicalEncoding, _isSmallOrderEncoding, _SMALL_ORDER_ENCODINGS } from '../src/ed25519-rule.js';
import {
  bytesToHex,
  CryptoError,
  type Ed25519Rejection,
  ed25519PreCheck,
  hexToBytes,
  nobleSignatures,
  type SignatureBackend,
} from '../src/index.js';
import { nodeSignatures } from '../src/node.js';
import { loadVectors as load } from './_testdata.js';

const BACKENDS: readonly SignatureBackend[] = [nobleSignatures, nodeSignatures];
const utf8 = new TextEncoder();

/** Both backends' verdicts; the test fails with the case id when they differ. */
function verdicts(id: string, sig: Uint8Array, msg: Uint8Array, pub: Uint8Array): boolean {
  const [noble, node] = BACKENDS.map((backend) => backend.verify(sig, msg, pub));
  expect({ case: id, node }).toEqual({ case: id, node: noble });
  return noble === true;
}

describe('RFC 8032 §7.1 (rfc8032_ed25519.json)', () => {
  interface Rfc8032 {
    name: string;
    secretKey: string;
    publicKey: string;
    message: string;
    signature: string;
  }
  const cases = load<Rfc8032[]>('rfc8032_ed25519.json');
  it('has the 5 RFC test vectors', () => expect(cases).toHaveLength(5));
  for (const backend of BACKENDS) {
    it.each(cases.map((c) => [c.name, c] as const))(
      `${backend.name}: test %s signs byte-identically and verifies`,
      (name, c) => {
        const secret = hexToBytes(c.secretKey, 32);
        const message = hexToBytes(c.message);
        expect({ case: name, pub: bytesToHex(backend.publicKey(secret)) }).toEqual({
          case: name,
          pub: c.publicKey,
        });
        expect({ case: name, sig: bytesToHex(backend.sign(message, secret)) }).toEqual({
          case: name,
          sig: c.signature,
        });
        expect({
          case: name,
          ok: backend.verify(hexToBytes(c.signature), message, hexToBytes(c.publicKey)),
        }).toEqual({
          case: name,
          ok: true,
        });
      },
    );
  }
});

describe('Wycheproof ed25519_test.json', () => {
  interface Group {
    publicKey: { pk: string };
    tests: { tcId: number; comment: string; flags: string[]; msg: string; sig: string; result: string }[];
  }
  const suite = load<{ numberOfTests: number; testGroups: Group[] }>('ed25519_test.json');
  const cases = suite.testGroups.flatMap((group) =>
    group.tests.map((test) => ({ ...test, pk: group.publicKey.pk })),
  );
  it('reads every case of the file', () => expect(cases).toHaveLength(suite.numberOfTests));
  it.each(cases.map((c) => [c.tcId, c] as const))(
    "tcId %i: the file's verdict on both backends",
    (tcId, c) => {
      const id = `wycheproof tcId ${tcId} (${c.comment || c.flags.join(',')})`;
      // A signature of the wrong length is invalid for every verifier; hexToBytes must not throw on it.
      const sig = hexToBytes(c.sig);
      const ok = verdicts(id, sig, hexToBytes(c.msg), hexToBytes(c.pk, 32));
      if (c.result === 'valid') expect({ case: id, ok }).toEqual({ case: id, ok: true });
      else if (c.result === 'invalid') expect({ case: id, ok }).toEqual({ case: id, ok: false });
      else throw new Error(`${id}: unknown result ${JSON.stringify(c.result)}`);
    },
  );
});

describe('ZIP-215 edge cases (noble_zip215.json), message "Zcash"', () => {
  interface Zip215 {
    vk_bytes: string;
    sig_bytes: string;
    valid_legacy: boolean;
    valid_zip215: boolean;
  }
  const cases = load<Zip215[]>('noble_zip215.json');
  const message = utf8.encode('Zcash');
  it('has 196 cases: 14 encodings of small-order A × 14 of small-order R', () => {
    expect(cases).toHaveLength(196);
    expect(new Set(cases.map((c) => c.vk_bytes)).size).toBe(14);
  });
  it('fail first as docs/protocol.md §3 counts: 84 on a non-canonical A, 48 on a non-canonical R, 64 on a small-order A', () => {
    const counts: Record<string, number> = {};
    for (const c of cases) {
      const reason = String(ed25519PreCheck(hexToBytes(c.sig_bytes, 64), hexToBytes(c.vk_bytes, 32)));
      counts[reason] = (counts[reason] ?? 0) + 1;
    }
    expect(counts).toEqual({ 'non-canonical-A': 84, 'non-canonical-R': 48, 'small-order-A': 64 });
  });
  it.each(cases.map((c, i) => [i, c] as const))('case %i: rejected identically by both backends', (i, c) => {
    const id = `zip215 case ${i} (vk ${c.vk_bytes.slice(0, 8)}…, R ${c.sig_bytes.slice(0, 8)}…)`;
    const pub = hexToBytes(c.vk_bytes, 32);
    const sig = hexToBytes(c.sig_bytes, 64);
    // Every A here is a small-order point (or a non-canonical encoding of one): the pre-check refuses.
    const reason = ed25519PreCheck(sig, pub);
    expect({ case: id, reason }).not.toEqual({ case: id, reason: null });
    expect({ case: id, ok: verdicts(id, sig, message, pub) }).toEqual({ case: id, ok: false });
  });
});

describe('"Taming the many EdDSAs" edge cases (noble_ed25519_edge_cases.json)', () => {
  interface Edge {
    message: string;
    pub_key: string;
    signature: string;
  }
  const cases = load<Edge[]>('noble_ed25519_edge_cases.json');
  /**
   * The verdict of our rule for each case, with the reason (Chalkias, Garillot, Nikolaenko,
   * "Taming the many EdDSAs", 2020, table 5): 0–2 small-order A or R; 3 mixed-order A and R where
   * the cofactorless equation holds; 4–5 mixed-order cases where only the cofactored equation
   * holds; 6–7 s ≥ L; 8–9 non-canonical R; 10–11 non-canonical A.
   */
  const expected: readonly { ok: boolean; reason: Ed25519Rejection | null }[] = [
    { ok: false, reason: 'small-order-A' },
    { ok: false, reason: 'small-order-A' },
    { ok: false, reason: 'small-order-R' },
    { ok: true, reason: null },
    { ok: false, reason: null },
    { ok: false, reason: null },
    { ok: false, reason: 's-not-below-L' },
    { ok: false, reason: 's-not-below-L' },
    { ok: false, reason: 'non-canonical-R' },
    { ok: false, reason: 'non-canonical-R' },
    { ok: false, reason: 'non-canonical-A' },
    { ok: false, reason: 'non-canonical-A' },
  ];
  it('has the 12 cases of the paper', () => expect(cases).toHaveLength(expected.length));
  it.each(cases.map((c, i) => [i, c] as const))(
    "case %i: the rule's verdict, identical on both backends",
    (i, c) => {
      const id = `edge case ${i}`;
      const sig = hexToBytes(c.signature, 64);
      const pub = hexToBytes(c.pub_key, 32);
      const ok = verdicts(id, sig, hexToBytes(c.message), pub);
      expect({ case: id, ok, reason: ed25519PreCheck(sig, pub) }).toEqual({ case: id, ...expected[i] });
    },
  );
});

describe('why the rule exists: the libraries alone disagree', () => {
  it("noble's own verify (zip215: false) and bare node:crypto differ on exactly 17 of the 208 cases", () => {
    const zcash = utf8.encode('Zcash');
    const all = [
      ...load<{ vk_bytes: string; sig_bytes: string }[]>('noble_zip215.json').map((c, i) => ({
        id: `zip215 case ${i}`,
        sig: c.sig_bytes,
        pub: c.vk_bytes,
        msg: zcash,
      })),
      ...load<{ message: string; pub_key: string; signature: string }[]>('noble_ed25519_edge_cases.json').map(
        (c, i) => ({ id: `edge case ${i}`, sig: c.signature, pub: c.pub_key, msg: hexToBytes(c.message) }),
      ),
    ];
    const differ: string[] = [];
    for (const c of all) {
      const sig = hexToBytes(c.sig, 64);
      const pub = hexToBytes(c.pub, 32);
      let noble: boolean;
      try {
        noble = ed25519.verify(sig, c.msg, pub, { zip215: false });
      } catch {
        noble = false;
      }
      const node = nodeSignaturesWithoutPreCheck(sig, c.msg, pub);
      if (noble !== node) differ.push(c.id);
      // ... while our two backends agree on every one of them (asserted case by case above).
      expect({ case: c.id, node: nodeSignatures.verify(sig, c.msg, pub) }).toEqual({
        case: c.id,
        node: nobleSignatures.verify(sig, c.msg, pub),
      });
    }
    expect(differ).toHaveLength(17);
    expect(differ).toEqual(expect.arrayContaining(['edge case 4', 'edge case 5', 'zip215 case 0']));
  });
});

/** node:crypto's verdict with no pre-check, to show why the pre-check is needed. */
function nodeSignaturesWithoutPreCheck(sig: Uint8Array, msg: Uint8Array, pub: Uint8Array): boolean {
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), pub]);
  try {
    return nodeVerify(null, msg, createPublicKey({ key: spki, format: 'der', type: 'spki' }), sig);
  } catch {
    return false;
  }
}

describe('the pre-check', () => {
  it('lists exactly the 8 points of the torsion subgroup, each canonical and of small order', () => {
    const T = ed25519.Point.fromBytes(_SMALL_ORDER_ENCODINGS[4]!);
    const torsion = new Set<string>();
    for (let i = 0n; i < 8n; i++) torsion.add(bytesToHex(T.multiplyUnsafe(i).toBytes()));
    expect(torsion.size).toBe(8);
    expect(new Set(_SMALL_ORDER_ENCODINGS.map(bytesToHex))).toEqual(torsion);
    for (const point of _SMALL_ORDER_ENCODINGS) {
      expect(_isCanonicalEncoding(point)).toBe(true);
      expect(ed25519.Point.fromBytes(point).isSmallOrder()).toBe(true);
    }
  });
  it('refuses y ≥ p and the negative-zero encodings as non-canonical', () => {
    const p = (1n << 255n) - 19n;
    const le = (n: bigint) => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 255n));
    for (const y of [p, p + 1n, p + 18n, (1n << 255n) - 1n]) expect(_isCanonicalEncoding(le(y))).toBe(false);
    expect(_isCanonicalEncoding(le(p - 1n))).toBe(true);
    expect(_isCanonicalEncoding(le(1n | (1n << 255n)))).toBe(false); // (−0, 1)
    expect(_isCanonicalEncoding(le((p - 1n) | (1n << 255n)))).toBe(false); // (−0, −1)
    expect(_isCanonicalEncoding(le(2n | (1n << 255n)))).toBe(true);
  });
  it("matches noble's strict decoding and isSmallOrder on the edge-case points", () => {
    const points = [
      ...load<{ vk_bytes: string; sig_bytes: string }[]>('noble_zip215.json').flatMap((c) => [
        c.vk_bytes,
        c.sig_bytes.slice(0, 64),
      ]),
      ...load<{ pub_key: string; signature: string }[]>('noble_ed25519_edge_cases.json').flatMap((c) => [
        c.pub_key,
        c.signature.slice(0, 64),
      ]),
    ];
    for (const hex of new Set(points)) {
      const bytes = hexToBytes(hex, 32);
      let decoded: ReturnType<typeof ed25519.Point.fromBytes> | undefined;
      try {
        decoded = ed25519.Point.fromBytes(bytes, false);
      } catch {
        decoded = undefined;
      }
      // Whatever noble decodes strictly is canonical for us, and small order exactly when noble says so.
      if (decoded) {
        expect({ point: hex, canonical: _isCanonicalEncoding(bytes) }).toEqual({
          point: hex,
          canonical: true,
        });
        expect({ point: hex, small: _isSmallOrderEncoding(bytes) }).toEqual({
          point: hex,
          small: decoded.isSmallOrder(),
        });
      }
    }
  });
  it('refuses wrong lengths without throwing, on both backends', () => {
    for (const backend of BACKENDS) {
      expect(backend.verify(new Uint8Array(63), new Uint8Array(0), new Uint8Array(32))).toBe(false);
      expect(backend.verify(new Uint8Array(64), new Uint8Array(0), new Uint8Array(33))).toBe(false);
    }
    expect(ed25519PreCheck(new Uint8Array(65), new Uint8Array(32))).toBe('signature-length');
    expect(ed25519PreCheck(new Uint8Array(64), new Uint8Array(31))).toBe('public-key-length');
  });
  it('refuses a secret key that is not 32 bytes with INVALID_KEY, on both backends', () => {
    for (const backend of BACKENDS) {
      for (const call of [
        () => backend.publicKey(new Uint8Array(31)),
        () => backend.sign(new Uint8Array(1), new Uint8Array(64)),
      ]) {
        expect(call).toThrow(CryptoError);
        expect(call).toThrow(/expected a 32-byte Ed25519 secret key/);
      }
    }
  });
});

describe('node backend key reuse', () => {
  it('notices when the caller overwrites its secret-key array with another key (RFC 8032 tests 1 and 2)', () => {
    const rfc = load<{ secretKey: string; publicKey: string }[]>('rfc8032_ed25519.json');
    const key = hexToBytes(rfc[0]!.secretKey, 32);
    expect(bytesToHex(nodeSignatures.publicKey(key))).toBe(rfc[0]!.publicKey);
    key.set(hexToBytes(rfc[1]!.secretKey, 32));
    expect(bytesToHex(nodeSignatures.publicKey(key))).toBe(rfc[1]!.publicKey);
    const sig = nodeSignatures.sign(new Uint8Array([0x72]), key);
    expect(nobleSignatures.verify(sig, new Uint8Array([0x72]), hexToBytes(rfc[1]!.publicKey))).toBe(true);
  });
  it('returns a copy of the public key: changing it does not poison the next call', () => {
    const key = new Uint8Array(32).fill(9);
    const first = nodeSignatures.publicKey(key);
    first.fill(0);
    expect(nodeSignatures.publicKey(key)).toEqual(nobleSignatures.publicKey(key));
  });
});

describe('node backend verifyAsync (libuv thread pool)', () => {
  it('gives the synchronous verdict on every published case, valid and invalid', async () => {
    const wycheproof = load<{
      testGroups: { publicKey: { pk: string }; tests: { tcId: number; msg: string; sig: string }[] }[];
    }>('ed25519_test.json');
    const zcash = utf8.encode('Zcash');
    const all = [
      ...load<{ message: string; publicKey: string; signature: string }[]>('rfc8032_ed25519.json').map(
        (c, i) => ({ id: `rfc8032 ${i}`, sig: c.signature, pub: c.publicKey, msg: hexToBytes(c.message) }),
      ),
      ...wycheproof.testGroups.flatMap((group) =>
        group.tests.map((t) => ({
          id: `wycheproof tcId ${t.tcId}`,
          sig: t.sig,
          pub: group.publicKey.pk,
          msg: hexToBytes(t.msg),
        })),
      ),
      ...load<{ vk_bytes: string; sig_bytes: string }[]>('noble_zip215.json').map((c, i) => ({
        id: `zip215 case ${i}`,
        sig: c.sig_bytes,
        pub: c.vk_bytes,
        msg: zcash,
      })),
      ...load<{ message: string; pub_key: string; signature: string }[]>('noble_ed25519_edge_cases.json').map(
        (c, i) => ({ id: `edge case ${i}`, sig: c.signature, pub: c.pub_key, msg: hexToBytes(c.message) }),
      ),
    ];
    expect(all.length).toBeGreaterThan(350);
    const verifyAsync = nodeSignatures.verifyAsync!;
    const asyncVerdicts = await Promise.all(
      all.map((c) => verifyAsync(hexToBytes(c.sig), c.msg, hexToBytes(c.pub))),
    );
    let valid = 0;
    for (const [i, c] of all.entries()) {
      const sync = nodeSignatures.verify(hexToBytes(c.sig), c.msg, hexToBytes(c.pub));
      expect({ case: c.id, async: asyncVerdicts[i] }).toEqual({ case: c.id, async: sync });
      if (sync) valid++;
    }
    // Both verdicts occur, so a verifyAsync that always answered one of them would fail above.
    expect(valid).toBeGreaterThan(50);
    expect(valid).toBeLessThan(all.length - 50);
  });
  it('refuses wrong lengths and a non-array message without rejecting', async () => {
    const verifyAsync = nodeSignatures.verifyAsync!;
    await expect(verifyAsync(new Uint8Array(63), new Uint8Array(0), new Uint8Array(32))).resolves.toBe(false);
    await expect(verifyAsync(new Uint8Array(64), new Uint8Array(0), new Uint8Array(33))).resolves.toBe(false);
    await expect(
      verifyAsync(
        new Uint8Array(64),
        'text' as unknown as Uint8Array,
        nobleSignatures.publicKey(new Uint8Array(32)),
      ),
    ).resolves.toBe(false);
  });
});
