/**
 * The chain check beyond the vectors (docs/protocol.md §11.4): the memoizing checker never lets a
 * remembered chain outlive its window, a revocation, a change of trusted roots or a swapped
 * signature, and saves the signature work it is for; hostile input gets a verdict, never a throw;
 * the caller's own mistakes throw.
 */
import { describe, expect, it } from 'vitest';
import {
  type ChainCheckInput,
  CryptoError,
  canonicalJson,
  checkDelegationChain,
  type Delegation,
  DelegationChainChecker,
  formatKey,
  nobleSignatures,
  type SignatureBackend,
  signDelegation,
  signRevocation,
} from '../src/index.js';

const T0 = 1_767_225_600;
const secret = (n: number) => new Uint8Array(32).fill(n);
const key = (n: number) => formatKey('ed25519', nobleSignatures.publicKey(secret(n)));
const ROOT = 1;

/** root(1) → 2 → 3 …: `n` links, each for one day from T0 + i seconds. */
function chain(n: number, nonceSeed = 0): Delegation[] {
  const links: Delegation[] = [];
  for (let i = 0; i < n; i++) {
    links.push(
      signDelegation(
        {
          delegated_key: key(i + 2),
          capabilities: ['com.acme.docs.read'],
          not_before: T0 + i,
          expires_at: T0 + 86_400,
          nonce: (nonceSeed + i).toString(16).padStart(32, '0'),
          ...(i === 0 ? {} : { proof: links[i - 1]!.id }),
        },
        secret(i + 1),
      ),
    );
  }
  return links;
}

/** The noble backend, counting signature checks. */
function countingBackend(): SignatureBackend & { verified: number } {
  const backend = {
    ...nobleSignatures,
    verified: 0,
    verify(sig: Uint8Array, message: Uint8Array, publicKey: Uint8Array) {
      backend.verified++;
      return nobleSignatures.verify(sig, message, publicKey);
    },
  };
  return backend;
}

const input = (links: unknown, extra: Partial<ChainCheckInput> = {}): ChainCheckInput => ({
  chain: links,
  trustedRoots: [key(ROOT)],
  at: T0 + 100,
  ...extra,
});

describe('DelegationChainChecker', () => {
  it('checks the signatures of a chain once, then remembers them', () => {
    const backend = countingBackend();
    const checker = new DelegationChainChecker({ backend });
    const links = chain(3);
    expect(checker.check(input(links)).ok).toBe(true);
    expect(backend.verified).toBe(3);
    expect(checker.check(input(JSON.parse(JSON.stringify(links)))).ok).toBe(true);
    expect(backend.verified).toBe(3);
    expect(checker.size).toBe(1);
  });

  it('never accepts a remembered chain outside its window, or once it is revoked', () => {
    const checker = new DelegationChainChecker();
    const links = chain(2);
    expect(checker.check(input(links)).ok).toBe(true);
    expect(checker.check(input(links, { at: T0 + 86_401 }))).toMatchObject({
      ok: false,
      code: 'expired',
      link: { index: 0 },
    });
    expect(checker.check(input(links, { at: T0 }))).toMatchObject({
      ok: false,
      code: 'not_yet_valid',
      link: { index: 1 },
    });
    const revocation = signRevocation({ revoked: links[1]!.id, created_at: T0 }, secret(ROOT));
    expect(checker.check(input(links, { revocations: [revocation] }))).toMatchObject({
      ok: false,
      code: 'revoked',
      link: { index: 1 },
    });
    expect(checker.check(input(links)).ok).toBe(true);
  });

  it('keys what it remembers by the trusted roots and the signatures too', () => {
    const checker = new DelegationChainChecker();
    const links = chain(2);
    expect(checker.check(input(links)).ok).toBe(true);
    expect(checker.check(input(links, { trustedRoots: [key(9)] }))).toMatchObject({
      ok: false,
      code: 'untrusted_root',
    });
    // Same ids (the id does not cover sig), another signature: refused although the ids were accepted.
    const forged = [links[0], { ...links[1]!, sig: links[0]!.sig }];
    expect(checker.check(input(forged))).toMatchObject({ ok: false, code: 'signature', link: { index: 1 } });
    expect(checker.check(input(links)).ok).toBe(true);
  });

  it('forgets the least recently used chain past its bound', () => {
    const checker = new DelegationChainChecker({ maxChains: 2 });
    for (let i = 0; i < 3; i++) checker.check(input(chain(1, i * 10)));
    expect(checker.size).toBe(2);
  });

  it('gives the verdicts of checkDelegationChain, byte for byte', () => {
    const checker = new DelegationChainChecker();
    const cases = [input(chain(2)), input(chain(2), { at: T0 + 90_000 }), input([]), input(chain(9))];
    for (const c of cases) {
      expect(canonicalJson(checker.check(c))).toBe(canonicalJson(checkDelegationChain(c)));
      expect(canonicalJson(checker.check(c))).toBe(canonicalJson(checkDelegationChain(c)));
    }
  });
});

describe('checkDelegationChain on hostile and mistaken input', () => {
  it('answers a verdict for anything received, never a throw', () => {
    const hostile = Object.defineProperty({}, 'kind', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(checkDelegationChain(input([hostile]))).toMatchObject({
      ok: false,
      code: 'shape',
      link: { index: 0 },
    });
    expect(checkDelegationChain(input(null))).toMatchObject({ ok: false, code: 'shape' });
    expect(checkDelegationChain(input('[]'))).toMatchObject({ ok: false, code: 'shape' });
    const links = chain(2);
    const badRevocation = Object.defineProperty({}, 'revoked', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(checkDelegationChain(input(links, { revocations: [badRevocation, null, 7] })).ok).toBe(true);
  });

  it('ignores a revocation whose signature is not its issuer’s', () => {
    const links = chain(2);
    const revocation = signRevocation({ revoked: links[1]!.id, created_at: T0 }, secret(ROOT));
    const forged = { ...revocation, sig: links[0]!.sig };
    expect(checkDelegationChain(input(links, { revocations: [forged] })).ok).toBe(true);
    expect(checkDelegationChain(input(links, { revocations: [forged, revocation] }))).toMatchObject({
      code: 'revoked',
    });
  });

  it('refuses a chain of nine before reading a link', () => {
    const nine = [...chain(8), 'not even an object'];
    expect(checkDelegationChain(input(nine))).toEqual({
      ok: false,
      code: 'depth',
      message: 'link 8: the chain has 9 links, at most 8 are accepted',
      link: { index: 8 },
    });
  });

  it("throws for the caller's own mistakes: a malformed trusted root or time", () => {
    expect(() => checkDelegationChain(input(chain(1), { trustedRoots: ['ed25519:AB'] }))).toThrow(
      CryptoError,
    );
    expect(() => checkDelegationChain(input(chain(1), { at: -1 }))).toThrow(/at: expected unix seconds/);
    expect(() => checkDelegationChain(input(chain(1), { at: 1.5 }))).toThrow(CryptoError);
  });
});
