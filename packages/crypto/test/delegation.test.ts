/**
 * Delegation and revocation objects (docs/protocol.md §11.1–§11.2): signing, strict parsing with
 * errors that name the field, verification, and the capability rule a chain narrows by.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  CryptoError,
  capabilityCovers,
  capabilityMatches,
  computeDelegationId,
  type Delegation,
  delegationPreimage,
  formatKey,
  nobleSignatures,
  parseDelegation,
  parseRevocation,
  signDelegation,
  signRevocation,
  verifyDelegation,
  verifyRevocation,
} from '../src/index.js';

const issuerSecret = new Uint8Array(32).fill(7);
const delegateSecret = new Uint8Array(32).fill(9);
const issuer = formatKey('ed25519', nobleSignatures.publicKey(issuerSecret));
const delegate = formatKey('ed25519', nobleSignatures.publicKey(delegateSecret));

function sample(extra: Partial<Parameters<typeof signDelegation>[0]> = {}): Delegation {
  return signDelegation(
    {
      delegated_key: delegate,
      capabilities: ['com.acme.docs.read', 'com.acme.crm.*'],
      not_before: 1_767_225_600,
      expires_at: 1_767_225_600 + 86_400,
      nonce: '00112233445566778899aabbccddeeff',
      ...extra,
    },
    issuerSecret,
  );
}

function parseError(value: unknown): string {
  try {
    parseDelegation(value);
  } catch (error) {
    expect(error).toBeInstanceOf(CryptoError);
    expect((error as CryptoError).code).toBe('INVALID_DELEGATION');
    return (error as Error).message;
  }
  throw new Error('parseDelegation accepted it');
}

describe('delegations', () => {
  it('signs: issuer derived, fields in wire order, id = SHA-256 of the domain-tagged preimage, signature verifies', () => {
    const d = sample();
    expect(Object.keys(d)).toEqual([
      'kind',
      'issuer',
      'delegated_key',
      'capabilities',
      'not_before',
      'expires_at',
      'nonce',
      'id',
      'sig',
    ]);
    expect(d.issuer).toBe(issuer);
    expect(delegationPreimage(d).startsWith('["xp/1/delegate",')).toBe(true);
    expect(computeDelegationId(d)).toBe(d.id);
    expect(verifyDelegation(JSON.parse(JSON.stringify(d)))).toEqual({ ok: true, delegation: d });
  });

  it('draws a fresh 16-byte nonce when none is given, so equal delegations get different ids', () => {
    const a = sample({ nonce: undefined });
    const b = sample({ nonce: undefined });
    expect(a.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(a.id).not.toBe(b.id);
  });

  it('treats an optional field given as undefined as absent, and keeps on_behalf_of and proof when given', () => {
    expect('proof' in sample({ proof: undefined })).toBe(false);
    const d = sample({ on_behalf_of: issuer, proof: 'ab'.repeat(32) });
    expect(d.on_behalf_of).toBe(issuer);
    expect(d.proof).toBe('ab'.repeat(32));
    expect(verifyDelegation(d).ok).toBe(true);
  });

  it.each([
    ['not an object', [], 'delegation: expected a JSON object, got an array of 0'],
    ['an unknown field', { extra: 1 }, 'delegation.extra: unexpected field; a delegation has kind, issuer'],
    ['a missing field', { nonce: undefined }, 'delegation.nonce: missing'],
    [
      'another kind',
      { kind: 'xp.key.revoke' },
      'delegation.kind: expected "xp.key.delegate", got "xp.key.revoke"',
    ],
    [
      'bare hex as a key',
      { delegated_key: 'ab'.repeat(32) },
      'delegation.delegated_key: expected "ed25519:" followed by 64 lowercase hex digits',
    ],
    [
      'no capabilities',
      { capabilities: [] },
      'delegation.capabilities: expected an array of 1 to 64 grants, got an array of 0',
    ],
    ['a malformed capability', { capabilities: ['com..x'] }, 'delegation.capabilities[0]: expected a grant'],
    ['a wildcard inside', { capabilities: ['com.*.read'] }, 'delegation.capabilities[0]: expected a grant'],
    [
      'a duplicate capability',
      { capabilities: ['a.b', 'a.b'] },
      'delegation.capabilities[1]: "a.b" is listed twice',
    ],
    [
      'a fractional time',
      { not_before: 1.5 },
      'delegation.not_before: expected unix seconds (a non-negative safe integer), got 1.5',
    ],
    [
      'an expiry before the start',
      { expires_at: 1_000 },
      'delegation.expires_at: expected a time at or after not_before (1767225600), got 1000',
    ],
    ['a short nonce', { nonce: 'abcd' }, 'delegation.nonce: expected 32 lowercase hex digits, got "abcd"'],
    ['a null proof', { proof: null }, 'delegation.proof: expected 64 lowercase hex digits, got null'],
    ['an uppercase signature', { sig: 'AB'.repeat(64) }, 'delegation.sig: expected 128 lowercase hex digits'],
  ])('refuses %s, naming the field', (_what, change, message) => {
    const value: unknown = Array.isArray(change) ? change : { ...sample(), ...change };
    for (const [k, v] of Object.entries(change))
      if (v === undefined) delete (value as Record<string, unknown>)[k];
    expect(parseError(value)).toContain(message);
  });

  it('verifies: an edited field fails the id, another key fails the signature, and nothing throws', () => {
    const d = sample();
    expect(verifyDelegation({ ...d, expires_at: d.expires_at + 1 })).toMatchObject({ ok: false, code: 'id' });
    const { kind: _kind, issuer: _issuer, id: _id, sig: _sig, ...template } = d;
    const other = signDelegation(template, delegateSecret);
    expect(verifyDelegation({ ...d, sig: other.sig })).toMatchObject({ ok: false, code: 'signature' });
    const hostile = Object.defineProperty({ ...d }, 'issuer', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(verifyDelegation(hostile)).toMatchObject({
      ok: false,
      code: 'shape',
      message: expect.stringContaining('boom'),
    });
  });

  it('cannot be signed with a malformed template (nothing is signed)', () => {
    expect(() => sample({ capabilities: ['*', 'a.b', 'a.b'] })).toThrow(
      /capabilities\[2\]: "a.b" is listed twice/,
    );
    const template = { delegated_key: delegate, capabilities: ['ok'], not_before: 0, expires_at: 1 };
    expect(() => signDelegation(template, new Uint8Array(31))).toThrow(CryptoError);
    expect(() => signDelegation({ ...template, expires_at: -1 }, issuerSecret)).toThrow(
      /delegation.expires_at: expected unix seconds/,
    );
  });
});

describe('revocations', () => {
  const d = sample();
  const r = signRevocation({ revoked: d.id, created_at: 1_767_312_000 }, issuerSecret);

  it('signs and verifies; the preimage starts with its own domain', () => {
    expect(Object.keys(r)).toEqual(['kind', 'issuer', 'revoked', 'created_at', 'id', 'sig']);
    expect(r.issuer).toBe(issuer);
    expect(verifyRevocation(JSON.parse(JSON.stringify(r)))).toEqual({ ok: true, revocation: r });
    expect(parseRevocation(r)).toEqual(r);
  });

  it('refuses an edited or re-signed revocation, and a delegation passed as one', () => {
    expect(verifyRevocation({ ...r, created_at: r.created_at + 1 })).toMatchObject({ ok: false, code: 'id' });
    expect(verifyRevocation({ ...r, sig: d.sig })).toMatchObject({ ok: false, code: 'signature' });
    expect(verifyRevocation(d)).toMatchObject({
      ok: false,
      code: 'shape',
      message: expect.stringContaining('revocation.kind'),
    });
    expect(() => parseRevocation({ ...r, revoked: 'xyz' })).toThrow(
      /revocation.revoked: expected 64 lowercase hex digits, got "xyz"/,
    );
  });

  it('a signature is bound to its domain: the same key signing a revocation never yields a valid delegation signature', () => {
    // The revocation's signature is over its own id; presented on the delegation it revokes, it fails.
    expect(verifyDelegation({ ...d, sig: r.sig })).toMatchObject({ ok: false, code: 'signature' });
    expect(bytesToHex(new TextEncoder().encode(delegationPreimage(d).slice(2, 15)))).toBe(
      bytesToHex(new TextEncoder().encode('xp/1/delegate')),
    );
  });
});

describe('capabilityCovers: a delegation can only narrow', () => {
  it.each([
    ['*', '*', true],
    ['*', 'com.acme.*', true],
    ['com.acme.*', 'com.acme.*', true],
    ['com.acme.*', 'com.acme.docs.*', true],
    ['com.acme.*', 'com.acme.docs.read', true],
    ['com.acme.docs.read', 'com.acme.docs.read', true],
    ['com.acme.*', '*', false],
    ['com.acme.*', 'com.acme', false],
    ['com.acme.*', 'com.acmex.read', false],
    ['com.acme.docs.*', 'com.acme.*', false],
    ['com.acme.docs.read', 'com.acme.docs.*', false],
    ['com.acme.docs.read', 'com.acme.docs.write', false],
    ['com..x', 'com..x', false],
  ])('%s covers %s: %s', (held, delegated, expected) => {
    expect(capabilityCovers(held, delegated)).toBe(expected);
  });

  const segment = fc.constantFrom('a', 'b', 'c');
  const capability = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('.'));
  const grant = fc.oneof(
    capability,
    capability.map((c) => `${c}.*`),
    fc.constant('*'),
  );

  it('is sound: whatever a covered grant matches, the covering one matches too', () => {
    fc.assert(
      fc.property(grant, grant, capability, (held, delegated, required) => {
        if (capabilityCovers(held, delegated) && capabilityMatches(delegated, required)) {
          expect(capabilityMatches(held, required)).toBe(true);
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it('is complete: when it refuses, the delegated grant matches a capability the held one does not', () => {
    fc.assert(
      fc.property(grant, grant, (held, delegated) => {
        if (capabilityCovers(held, delegated)) return;
        // A witness: the delegated grant itself, or one segment below its wildcard.
        const witness =
          delegated === '*' ? 'zz' : delegated.endsWith('.*') ? `${delegated.slice(0, -1)}zz` : delegated;
        expect(capabilityMatches(delegated, witness)).toBe(true);
        expect(capabilityMatches(held, witness)).toBe(false);
      }),
      { numRuns: 5_000 },
    );
  });
});
