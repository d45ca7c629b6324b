/**
 * testdata/vectors/xp-delegation.json (docs/protocol.md §11.5) against this package: the file is
 * exactly what `_delegation-vectors.ts` builds (regenerate with `npx vitest run -u
 * test/delegation-vectors.test.ts`, then `node scripts/testdata-manifest.mjs`), and every case
 * gets its expected outcome from `checkDelegationChain` and from a memoizing checker, on both
 * backends, with byte-identical verdicts.
 */
import { describe, expect, it } from 'vitest';
import {
  type ChainRefusal,
  type ChainVerdict,
  canonicalJson,
  checkDelegationChain,
  computeDelegationId,
  DelegationChainChecker,
  delegationPreimage,
  nobleSignatures,
  revocationPreimage,
} from '../src/index.js';
import { nodeSignatures } from '../src/node.js';
import { type DelegationVectors, delegationVectorsText, type VectorCase } from './_delegation-vectors.js';
import { loadVectors } from './_testdata.js';

const FILE = 'xp-delegation.json';
const vectors = loadVectors<DelegationVectors>(FILE);
const BACKENDS = [nobleSignatures, nodeSignatures] as const;

/** Our verdict in the vector file's terms. */
function outcome(verdict: ChainVerdict): unknown {
  if (!verdict.ok) {
    return { ok: false, code: verdict.code, ...(verdict.link ? { link: verdict.link.index } : {}) };
  }
  return {
    ok: true,
    chain_id: verdict.chainId,
    root: verdict.root,
    delegated_key: verdict.delegatedKey,
    capabilities: verdict.capabilities,
    ...(verdict.onBehalfOf ? { on_behalf_of: verdict.onBehalfOf } : {}),
    not_before: verdict.notBefore,
    expires_at: verdict.expiresAt,
  };
}

function input(c: VectorCase) {
  return { chain: c.chain, trustedRoots: c.trusted_roots, at: c.at, revocations: c.revocations };
}

describe(`testdata/vectors/${FILE}`, () => {
  it('is what the generator writes (fixed seeds, nonces and times)', async () => {
    await expect(delegationVectorsText()).toMatchFileSnapshot(`../../../testdata/vectors/${FILE}`);
  });

  it('has a case for every refusal code, and accepted chains', () => {
    const codes: ChainRefusal[] = [
      'shape',
      'depth',
      'id',
      'untrusted_root',
      'wrong_signer',
      'proof_mismatch',
      'signature',
      'cycle',
      'widened',
      'on_behalf_of',
      'backdated',
      'revoked',
      'not_yet_valid',
      'expired',
    ];
    const seen = new Set(vectors.cases.map((c) => (c.expect.ok ? 'ok' : c.expect.code)));
    expect([...seen].sort()).toEqual([...codes, 'ok'].sort());
    expect(vectors.max_chain_links).toBe(8);
  });

  it.each(vectors.preimages.map((p) => [p.name, p] as const))(
    'preimage %s: RFC 8785 text and id',
    (name, p) => {
      const object = p.object as Parameters<typeof delegationPreimage>[0];
      const isRevocation = (object.kind as string) === 'xp.key.revoke';
      const preimage = isRevocation ? revocationPreimage(object as never) : delegationPreimage(object);
      expect({ name, preimage }).toEqual({ name, preimage: p.preimage });
      if (!isRevocation) expect({ name, id: computeDelegationId(object) }).toEqual({ name, id: p.id });
    },
  );

  describe.each(BACKENDS.map((b) => [b.name, b] as const))('%s backend', (_name, backend) => {
    const checker = new DelegationChainChecker({ backend });
    it.each(vectors.cases.map((c) => [c.name, c] as const))('%s', (name, c) => {
      const verdict = checkDelegationChain(input(c), backend);
      expect({ name, outcome: outcome(verdict) }).toEqual({ name, outcome: c.expect });
      // A remembered chain gets the same verdict, the first time and the second (a memo hit).
      const bytes = canonicalJson(verdict);
      expect(canonicalJson(checker.check(input(c)))).toBe(bytes);
      expect(canonicalJson(checker.check(input(c)))).toBe(bytes);
      expect(canonicalJson(checkDelegationChain(input(c), backend))).toBe(bytes);
      if (!verdict.ok && verdict.link) {
        // The message names the link by index, and by its keys once it parsed.
        expect(verdict.message).toMatch(new RegExp(`^link ${verdict.link.index}[ :]`));
        if (verdict.link.issuer) expect(verdict.message).toContain(verdict.link.issuer);
      }
    });
  });

  it('gives byte-identical verdicts on both backends', () => {
    for (const c of vectors.cases) {
      const [noble, node] = BACKENDS.map((b) => canonicalJson(checkDelegationChain(input(c), b)));
      expect({ name: c.name, node }).toEqual({ name: c.name, node: noble });
    }
  });
});
