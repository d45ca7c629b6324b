// Authority from a caller's delegation chain (docs/protocol.md §11.7): the signer's own grants
// first; else a chain from a trusted issuer whose last key is the signer gives the intersection of
// its capabilities and the issuer's grant here. Each chain refusal maps to one wire code —
// `revoked` to REVOKED, every other to AUTHORIZATION_INSUFFICIENT — with a reason naming the code
// and the link. Real signatures throughout (no mock): the chains are signed with fresh keys.
import {
  type ChainRefusal,
  type Delegation,
  generateIdentity,
  type Identity,
  signDelegation,
  signRevocation,
} from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { describe, expect, it } from 'vitest';
import { AccessPolicy } from '../src/policy/access.js';
import { DelegatedAccess, type PresentedChain } from '../src/policy/delegated-access.js';
import { RevocationSet } from '../src/policy/revocation-set.js';

const now = Math.floor(Date.now() / 1000);
const root = generateIdentity();
const dept = generateIdentity();
const caller = generateIdentity();
const stranger = generateIdentity();

function link(
  issuer: Identity,
  to: Identity,
  capabilities: string[],
  extra: { proof?: string; not_before?: number; expires_at?: number } = {},
): Delegation {
  return signDelegation(
    {
      delegated_key: to.keys.ed25519,
      capabilities,
      not_before: extra.not_before ?? now - 60,
      expires_at: extra.expires_at ?? now + 3600,
      proof: extra.proof,
    },
    issuer.ed25519.secretKey,
    nodeSignatures,
  );
}

/** root → dept (com.acme.*) → caller (`capabilities`). */
function chainTo(capabilities: string[]): Delegation[] {
  const top = link(root, dept, ['com.acme.*']);
  return [top, link(dept, caller, capabilities, { proof: top.id })];
}

function setup(grants: { key: string; capabilities: string[] }[] = []) {
  const revocations = new RevocationSet({ signatures: nodeSignatures });
  const access = new AccessPolicy({
    default: 'deny',
    grants: [{ key: root.keys.ed25519, capabilities: ['com.acme.docs.*'] }, ...grants],
    trustedIssuers: [root.keys.ed25519],
  });
  const delegated = new DelegatedAccess({ access, revocations, signatures: nodeSignatures });
  const present = (chain: unknown): PresentedChain => ({ verdict: delegated.checkChain(chain, now) });
  return { delegated, revocations, present };
}

describe('DelegatedAccess.authorize', () => {
  it("serves a chain from a trusted issuer within the intersection of the chain and the issuer's grant, attributed to the root", () => {
    const { delegated, present } = setup();
    const chain = present(chainTo(['com.acme.docs.read', 'com.acme.crm.read']));
    const verdict = delegated.authorize(caller.keys.ed25519, 'com.acme.docs.read', chain);
    expect(verdict).toMatchObject({ ok: true, principal: root.keys.ed25519 });
    expect(verdict.ok && verdict.chain).toMatchObject({ root: root.keys.ed25519, id: expect.any(String) });
    // The chain holds com.acme.crm.read, but the root's grant here does not: refused.
    expect(delegated.authorize(caller.keys.ed25519, 'com.acme.crm.read', chain)).toEqual({
      ok: false,
      code: 'AUTHORIZATION_INSUFFICIENT',
      reason: `this key has no grants here, and the grants of its chain's root ${root.keys.ed25519} here (com.acme.docs.*) do not include it`,
    });
    // The root's grant covers com.acme.docs.write, but the chain does not give it.
    expect(delegated.authorize(caller.keys.ed25519, 'com.acme.docs.write', chain)).toEqual({
      ok: false,
      code: 'AUTHORIZATION_INSUFFICIENT',
      reason:
        'this key has no grants here, and its delegation chain gives com.acme.docs.read, com.acme.crm.read, which do not include it',
    });
  });

  it('attributes a call to on_behalf_of when the chain names a user', () => {
    const { delegated, present } = setup();
    const user = generateIdentity();
    const top = link(root, user, ['com.acme.docs.*']);
    // Only the user's own key can start acting for the user.
    const own = signDelegation(
      {
        delegated_key: caller.keys.ed25519,
        capabilities: ['com.acme.docs.read'],
        on_behalf_of: user.keys.ed25519,
        not_before: now - 60,
        expires_at: now + 3600,
        proof: top.id,
      },
      user.ed25519.secretKey,
      nodeSignatures,
    );
    expect(delegated.authorize(caller.keys.ed25519, 'com.acme.docs.read', present([top, own]))).toMatchObject(
      {
        ok: true,
        principal: user.keys.ed25519,
        chain: { root: root.keys.ed25519, onBehalfOf: user.keys.ed25519 },
      },
    );
  });

  it('uses the signer’s own grant first and never reads the chain then', () => {
    const { delegated } = setup([{ key: caller.keys.ed25519, capabilities: ['com.acme.docs.read'] }]);
    const broken: PresentedChain = { problem: 'does not decrypt', code: 'tag' };
    expect(delegated.authorize(caller.keys.ed25519, 'com.acme.docs.read', broken)).toEqual({
      ok: true,
      principal: caller.keys.ed25519,
    });
  });

  it('refuses a chain whose last key is not the signer', () => {
    const { delegated, present } = setup();
    expect(
      delegated.authorize(
        stranger.keys.ed25519,
        'com.acme.docs.read',
        present(chainTo(['com.acme.docs.read'])),
      ),
    ).toEqual({
      ok: false,
      code: 'AUTHORIZATION_INSUFFICIENT',
      reason: `this key has no grants here, and its delegation chain was refused (not_the_signer at link 1): the chain vouches for ${caller.keys.ed25519}, but the request is signed by ${stranger.keys.ed25519}`,
      chainCode: 'not_the_signer',
      chainLink: 1,
    });
  });

  it('refuses an unreadable tag with AUTHORIZATION_INSUFFICIENT naming it', () => {
    const { delegated } = setup();
    expect(
      delegated.authorize(caller.keys.ed25519, 'com.acme.docs.read', {
        problem: 'the delegation tag does not decrypt',
        code: 'tag',
      }),
    ).toEqual({
      ok: false,
      code: 'AUTHORIZATION_INSUFFICIENT',
      reason:
        'this key has no grants here, and its delegation chain was refused (tag): the delegation tag does not decrypt',
      chainCode: 'tag',
    });
  });

  it('refuses a revoked link with REVOKED once the revocation is held, naming the link', () => {
    const { delegated, revocations, present } = setup();
    const chain = chainTo(['com.acme.docs.read']);
    expect(delegated.authorize(caller.keys.ed25519, 'com.acme.docs.read', present(chain)).ok).toBe(true);
    const revocation = signRevocation(
      { revoked: chain[1]!.id, created_at: now },
      dept.ed25519.secretKey,
      nodeSignatures,
    );
    expect(revocations.add(revocation, dept.keys.ed25519)).toMatchObject({ ok: true, added: true });
    const verdict = delegated.authorize(caller.keys.ed25519, 'com.acme.docs.read', present(chain));
    expect(verdict).toMatchObject({ ok: false, code: 'REVOKED', chainCode: 'revoked', chainLink: 1 });
    expect(!verdict.ok && verdict.reason).toMatch(
      /^this key has no grants here, and its delegation chain was refused \(revoked at link 1\): link 1 /,
    );
  });

  it.each<[string, () => unknown, ChainRefusal, number | undefined]>([
    [
      'an expired link',
      () => [link(root, caller, ['com.acme.docs.read'], { expires_at: now - 1, not_before: now - 100 })],
      'expired',
      0,
    ],
    [
      'a link not valid yet',
      () => [link(root, caller, ['com.acme.docs.read'], { not_before: now + 600 })],
      'not_yet_valid',
      0,
    ],
    [
      'a widened capability',
      () => {
        const top = link(root, dept, ['com.acme.docs.read']);
        return [top, link(dept, caller, ['com.acme.*'], { proof: top.id })];
      },
      'widened',
      1,
    ],
    [
      'a bad signature',
      () => {
        const top = link(root, caller, ['com.acme.docs.read']);
        return [{ ...top, sig: top.sig.replace(/^./, (c) => (c === '0' ? '1' : '0')) }];
      },
      'signature',
      0,
    ],
    ['an untrusted root', () => [link(stranger, caller, ['com.acme.docs.read'])], 'untrusted_root', 0],
    [
      'a chain over 8 links',
      () => Array.from({ length: 9 }, () => link(root, caller, ['com.acme.docs.read'])),
      'depth',
      8,
    ],
    [
      'a cycle',
      () => {
        const top = link(root, dept, ['com.acme.*']);
        const back = link(dept, root, ['com.acme.*'], { proof: top.id });
        return [top, back];
      },
      'cycle',
      1,
    ],
    [
      'a link issued out of order',
      () => {
        const top = link(root, dept, ['com.acme.*']);
        return [top, link(stranger, caller, ['com.acme.docs.read'], { proof: top.id })];
      },
      'wrong_signer',
      1,
    ],
    ['not a chain', () => [], 'shape', undefined],
  ])('refuses %s with AUTHORIZATION_INSUFFICIENT naming %s and the link', (_what, make, code, index) => {
    const { delegated, present } = setup();
    const verdict = delegated.authorize(caller.keys.ed25519, 'com.acme.docs.read', present(make()));
    expect(verdict).toMatchObject({
      ok: false,
      code: 'AUTHORIZATION_INSUFFICIENT',
      chainCode: code,
      ...(index !== undefined && { chainLink: index }),
    });
    const where = index === undefined ? code : `${code} at link ${index}`;
    expect(!verdict.ok && verdict.reason).toContain(`its delegation chain was refused (${where}): `);
  });
});

describe('RevocationSet', () => {
  const chain = chainTo(['com.acme.docs.read']);
  const revocation = signRevocation(
    { revoked: chain[1]!.id, created_at: now },
    dept.ed25519.secretKey,
    nodeSignatures,
  );

  it('keeps a valid revocation signed by its issuer, once', () => {
    const set = new RevocationSet({ signatures: nodeSignatures });
    expect(set.add(revocation, dept.keys.ed25519)).toMatchObject({ ok: true, added: true });
    expect(set.add(revocation, dept.keys.ed25519)).toMatchObject({ ok: true, added: false });
    expect(set.about(chain.map((l) => l.id))).toEqual([revocation]);
    expect(set.about([chain[0]!.id])).toEqual([]);
  });

  it('ignores a revocation published by another key than its issuer, and a forged one', () => {
    const set = new RevocationSet({ signatures: nodeSignatures });
    expect(set.add(revocation, stranger.keys.ed25519)).toEqual({
      ok: false,
      reason: `the revocation is issued by ${dept.keys.ed25519} but published by ${stranger.keys.ed25519}`,
    });
    const forged = { ...revocation, created_at: revocation.created_at + 1 };
    expect(set.add(forged, dept.keys.ed25519)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/revocation\.id/),
    });
    expect(set.size).toBe(0);
  });

  it('keeps at most its limit from one issuer, and names that issuer as saturated', () => {
    const set = new RevocationSet({ signatures: nodeSignatures, maxPerIssuer: 2 });
    const byDept = [1, 2, 3].map((n) =>
      signRevocation({ revoked: chain[1]!.id, created_at: now + n }, dept.ed25519.secretKey, nodeSignatures),
    );
    expect(set.add(byDept[0], dept.keys.ed25519)).toMatchObject({ ok: true, added: true });
    expect(set.saturatedIssuer([root.keys.ed25519, dept.keys.ed25519])).toBeUndefined();
    expect(set.add(byDept[1], dept.keys.ed25519)).toMatchObject({ ok: true, added: true });
    expect(set.add(byDept[2], dept.keys.ed25519)).toEqual({
      ok: false,
      reason: `this endpoint holds 2 revocations by ${dept.keys.ed25519} already, its limit for one key`,
    });
    expect(set.saturatedIssuer([root.keys.ed25519, dept.keys.ed25519])).toBe(dept.keys.ed25519);
    // Another issuer is not held back by this one.
    const byRoot = signRevocation(
      { revoked: chain[0]!.id, created_at: now },
      root.ed25519.secretKey,
      nodeSignatures,
    );
    expect(set.add(byRoot, root.keys.ed25519)).toMatchObject({ ok: true, added: true });
    expect(set.size).toBe(3);
  });
});
