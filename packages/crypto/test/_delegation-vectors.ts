/**
 * Builds testdata/vectors/xp-delegation.json (docs/protocol.md §11.5): fixed seeds, fixed nonces,
 * fixed times, so every build writes the same bytes. Links are signed with this package's signer;
 * every expected outcome below is written by hand from the document, never computed by the chain
 * check. `delegation-vectors.test.ts` holds the file to this output and checks every case.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import {
  bytesToHex,
  canonicalJson,
  type Delegation,
  type DelegationTemplate,
  delegationChainId,
  delegationPreimage,
  type Ed25519KeyString,
  formatKey,
  hexToBytes,
  nobleSignatures,
  type Revocation,
  revocationPreimage,
  signDelegation,
  signRevocation,
} from '../src/index.js';

/** The outcome a case expects, in the document's field names. */
export type VectorExpectation =
  | {
      ok: true;
      chain_id: string;
      root: string;
      delegated_key: string;
      capabilities: string[];
      on_behalf_of?: string;
      not_before: number;
      expires_at: number;
    }
  | { ok: false; code: string; link?: number };

/** One case: a chain, the verifier's roots, time and revocations, and the outcome. */
export interface VectorCase {
  name: string;
  description: string;
  chain: unknown[];
  trusted_roots: string[];
  at: number;
  revocations: unknown[];
  expect: VectorExpectation;
}

/** The whole file. */
export interface DelegationVectors {
  description: string;
  max_chain_links: number;
  keys: Record<string, { secret: string; public: string }>;
  preimages: { name: string; object: unknown; preimage: string; id: string }[];
  cases: VectorCase[];
}

const DAY = 86_400;
/** 2026-01-01T00:00:00Z. */
const T0 = 1_767_225_600;
const KEY_NAMES = ['root', 'department', 'team', 'adapter', 'user', 'worker', 'outsider'];
const DEPTH_KEYS = Array.from({ length: 9 }, (_, i) => `level${i + 1}`);

function seed(name: string): string {
  return bytesToHex(sha256(new TextEncoder().encode(`xp/1 delegation vectors: ${name}`)));
}

const keys = Object.fromEntries(
  [...KEY_NAMES, ...DEPTH_KEYS].map((name) => {
    const secret = seed(name);
    return [
      name,
      { secret, public: formatKey('ed25519', nobleSignatures.publicKey(hexToBytes(secret, 32))) },
    ];
  }),
);
const pub = (name: string) => keys[name]!.public as Ed25519KeyString;

/** Signs a link from `issuer` to `delegate`; the nonce is derived from the link's name. */
function link(
  name: string,
  issuer: string,
  delegate: string,
  fields: Omit<DelegationTemplate, 'delegated_key' | 'nonce'>,
): Delegation {
  return signDelegation(
    { delegated_key: pub(delegate), nonce: seed(`nonce ${name}`).slice(0, 32), ...fields },
    hexToBytes(keys[issuer]!.secret, 32),
  );
}

function revoke(issuer: string, revoked: string, created_at: number): Revocation {
  return signRevocation({ revoked, created_at }, hexToBytes(keys[issuer]!.secret, 32));
}

// The valid hierarchy of §6.1: the organisation's root → the department → the adapter.
const rootDept = link('root-department', 'root', 'department', {
  capabilities: ['com.acme.docs.*', 'com.acme.crm.read'],
  not_before: T0,
  expires_at: T0 + 365 * DAY,
});
const deptAdapterFields = {
  capabilities: ['com.acme.docs.read', 'com.acme.crm.read'],
  not_before: T0 + DAY,
  expires_at: T0 + 180 * DAY,
  proof: rootDept.id,
};
const deptAdapter = link('department-adapter', 'department', 'adapter', deptAdapterFields);
const AT = T0 + 30 * DAY;

function refusal(
  name: string,
  description: string,
  chain: unknown[],
  code: string,
  linkIndex: number | undefined,
  extra: Partial<Pick<VectorCase, 'at' | 'revocations' | 'trusted_roots'>> = {},
): VectorCase {
  return {
    name,
    description,
    chain,
    trusted_roots: [pub('root')],
    at: AT,
    revocations: [],
    ...extra,
    expect: { ok: false, code, ...(linkIndex === undefined ? {} : { link: linkIndex }) },
  };
}

function accepted(
  name: string,
  description: string,
  chain: Delegation[],
  outcome: Omit<Extract<VectorExpectation, { ok: true }>, 'ok' | 'chain_id' | 'root'>,
  extra: Partial<Pick<VectorCase, 'at' | 'revocations' | 'trusted_roots'>> = {},
): VectorCase {
  const roots = extra.trusted_roots ?? [pub('root')];
  return {
    name,
    description,
    chain,
    trusted_roots: roots,
    at: AT,
    revocations: [],
    ...extra,
    expect: {
      ok: true,
      chain_id: delegationChainId(chain.map((l) => l.id)),
      root: chain[0]!.issuer,
      ...outcome,
    },
  };
}

/** A straight chain of `n` links root → level1 → … → level n, each narrowing nothing. */
function ladder(n: number): Delegation[] {
  const out: Delegation[] = [];
  const names = ['root', ...DEPTH_KEYS];
  for (let i = 0; i < n; i++) {
    out.push(
      link(`ladder-${i}`, names[i]!, names[i + 1]!, {
        capabilities: ['com.acme.docs.read'],
        not_before: T0,
        expires_at: T0 + 365 * DAY,
        ...(i === 0 ? {} : { proof: out[i - 1]!.id }),
      }),
    );
  }
  return out;
}

function acceptedCases(): VectorCase[] {
  const longAdapter = link('department-adapter-long', 'department', 'adapter', {
    ...deptAdapterFields,
    expires_at: T0 + 500 * DAY,
  });
  const rootUser = link('root-user', 'root', 'user', {
    capabilities: ['com.acme.docs.*'],
    not_before: T0,
    expires_at: T0 + 365 * DAY,
  });
  const userAdapter = link('user-adapter', 'user', 'adapter', {
    capabilities: ['com.acme.docs.read'],
    on_behalf_of: pub('user'),
    not_before: T0,
    expires_at: T0 + 90 * DAY,
    proof: rootUser.id,
  });
  const ladder8 = ladder(8);
  return [
    accepted('valid-3-level', 'root → department → adapter (docs/protocol.md §11)', [rootDept, deptAdapter], {
      delegated_key: pub('adapter'),
      capabilities: ['com.acme.docs.read', 'com.acme.crm.read'],
      not_before: T0 + DAY,
      expires_at: T0 + 180 * DAY,
    }),
    accepted(
      'valid-window-intersection',
      "the adapter's link outlives the department's: the chain ends with the department's",
      [rootDept, longAdapter],
      {
        delegated_key: pub('adapter'),
        capabilities: ['com.acme.docs.read', 'com.acme.crm.read'],
        not_before: T0 + DAY,
        expires_at: T0 + 365 * DAY,
      },
    ),
    accepted(
      'valid-on-behalf-of',
      'a user of the organisation lets the adapter act on its behalf',
      [rootUser, userAdapter],
      {
        delegated_key: pub('adapter'),
        capabilities: ['com.acme.docs.read'],
        on_behalf_of: pub('user'),
        not_before: T0,
        expires_at: T0 + 90 * DAY,
      },
    ),
    accepted(
      'valid-revocations-ignored',
      'revocations of the adapter link by an outsider and by the adapter itself: neither may revoke it',
      [rootDept, deptAdapter],
      {
        delegated_key: pub('adapter'),
        capabilities: ['com.acme.docs.read', 'com.acme.crm.read'],
        not_before: T0 + DAY,
        expires_at: T0 + 180 * DAY,
      },
      {
        revocations: [
          revoke('outsider', deptAdapter.id, T0 + 2 * DAY),
          revoke('adapter', deptAdapter.id, T0 + 2 * DAY),
        ],
      },
    ),
    accepted('valid-depth-at-cap', 'eight links, the most accepted', ladder8, {
      delegated_key: pub('level8'),
      capabilities: ['com.acme.docs.read'],
      not_before: T0,
      expires_at: T0 + 365 * DAY,
    }),
  ];
}

/** Refusals of the link phase (order, signature, cycle, attenuation, on_behalf_of, backdating). */
function linkRefusals(): VectorCase[] {
  const adapterWith = (
    name: string,
    fields: Partial<DelegationTemplate>,
    issuer = 'department',
    delegate = 'adapter',
  ) => link(name, issuer, delegate, { ...deptAdapterFields, ...fields });
  const deptTeam = link('department-team', 'department', 'team', {
    ...deptAdapterFields,
    capabilities: ['com.acme.docs.read'],
  });
  const teamAdapter = adapterWith(
    'team-adapter',
    { capabilities: ['com.acme.docs.read'], proof: deptTeam.id },
    'team',
  );
  const rootDeptAgain = link('root-department-again', 'root', 'department', {
    capabilities: ['com.acme.docs.*', 'com.acme.crm.read'],
    not_before: T0,
    expires_at: T0 + 365 * DAY,
  });
  const adapterDept = link('adapter-department', 'adapter', 'department', {
    capabilities: ['com.acme.docs.read'],
    not_before: T0 + 2 * DAY,
    expires_at: T0 + 90 * DAY,
    proof: deptAdapter.id,
  });
  const rootUser = link('root-user-2', 'root', 'user', {
    capabilities: ['com.acme.docs.*'],
    not_before: T0,
    expires_at: T0 + 365 * DAY,
  });
  const userAdapter = link('user-adapter-2', 'user', 'adapter', {
    capabilities: ['com.acme.docs.read'],
    on_behalf_of: pub('user'),
    not_before: T0,
    expires_at: T0 + 90 * DAY,
    proof: rootUser.id,
  });
  const adapterWorker = link('adapter-worker', 'adapter', 'worker', {
    capabilities: ['com.acme.docs.read'],
    not_before: T0,
    expires_at: T0 + 30 * DAY,
    proof: userAdapter.id,
  });
  return [
    refusal(
      'untrusted-root',
      'the verifier trusts another root',
      [rootDept, deptAdapter],
      'untrusted_root',
      0,
      {
        trusted_roots: [pub('outsider')],
      },
    ),
    refusal(
      'wrong-signer-order',
      'the last two links of root → department → team → adapter swapped',
      [rootDept, teamAdapter, deptTeam],
      'wrong_signer',
      1,
    ),
    refusal(
      'proof-mismatch',
      "the adapter's link names another delegation of the department than the chain carries",
      [rootDeptAgain, deptAdapter],
      'proof_mismatch',
      1,
    ),
    refusal(
      'proof-missing',
      "the adapter's link names no proof",
      [rootDept, adapterWith('no-proof', { proof: undefined })],
      'proof_mismatch',
      1,
    ),
    refusal(
      'signature',
      "the adapter's link carries the signature of link 0",
      [rootDept, { ...deptAdapter, sig: rootDept.sig }],
      'signature',
      1,
    ),
    refusal(
      'cycle',
      'the adapter delegates back to the department',
      [rootDept, deptAdapter, adapterDept],
      'cycle',
      2,
    ),
    refusal(
      'cycle-self',
      'the department delegates to itself',
      [rootDept, adapterWith('self', {}, 'department', 'department')],
      'cycle',
      1,
    ),
    refusal(
      'widened',
      'the department holds com.acme.crm.read and delegates com.acme.crm.write',
      [rootDept, adapterWith('widened', { capabilities: ['com.acme.crm.write'] })],
      'widened',
      1,
    ),
    refusal(
      'widened-wildcard',
      'the department holds com.acme.docs.* and delegates com.acme.*',
      [rootDept, adapterWith('widened-wildcard', { capabilities: ['com.acme.*'] })],
      'widened',
      1,
    ),
    refusal(
      'on-behalf-of-not-issuer',
      'the department claims to act for a user who did not sign',
      [rootDept, adapterWith('obo-not-issuer', { on_behalf_of: pub('user') })],
      'on_behalf_of',
      1,
    ),
    refusal(
      'on-behalf-of-dropped',
      'the adapter acts for the user but its own delegate drops on_behalf_of',
      [rootUser, userAdapter, adapterWorker],
      'on_behalf_of',
      2,
    ),
    refusal(
      'backdated',
      "the adapter's link starts a day before the department's own",
      [rootDept, adapterWith('backdated', { not_before: T0 - DAY })],
      'backdated',
      1,
    ),
  ];
}

/** A link whose id and signature were computed over the event domain's preimage instead. */
function wrongDomainLink(): unknown {
  const unsigned = { ...deptAdapter } as Record<string, unknown>;
  delete unsigned.id;
  delete unsigned.sig;
  const preimage = delegationPreimage(unsigned as never).replace('"xp/1/delegate"', '"xp/1/event"');
  const idBytes = sha256(new TextEncoder().encode(preimage));
  return {
    ...unsigned,
    id: bytesToHex(idBytes),
    sig: bytesToHex(nobleSignatures.sign(idBytes, hexToBytes(keys.department!.secret, 32))),
  };
}

function formAndTimeRefusals(): VectorCase[] {
  return [
    refusal('shape-empty-chain', 'no links at all', [], 'shape', undefined),
    refusal(
      'shape-unknown-field',
      "the adapter's link has a field the document does not define",
      [rootDept, { ...deptAdapter, note: 'hi' }],
      'shape',
      1,
    ),
    refusal('depth-over-cap', 'nine links, one more than accepted', ladder(9), 'depth', 8),
    refusal(
      'id',
      "the adapter's link was edited after signing (a capability removed)",
      [rootDept, { ...deptAdapter, capabilities: ['com.acme.docs.read'] }],
      'id',
      1,
    ),
    refusal(
      'wrong-domain',
      "the adapter's link was hashed and signed as an event (domain xp/1/event)",
      [rootDept, wrongDomainLink()],
      'id',
      1,
    ),
    refusal('revoked', 'the department revoked the adapter', [rootDept, deptAdapter], 'revoked', 1, {
      revocations: [revoke('department', deptAdapter.id, T0 + 10 * DAY)],
    }),
    refusal(
      'revoked-by-ancestor',
      "the root revoked the adapter's link",
      [rootDept, deptAdapter],
      'revoked',
      1,
      {
        revocations: [revoke('root', deptAdapter.id, T0 + 10 * DAY)],
      },
    ),
    refusal(
      'revoked-root-link',
      "the root revoked the department's link: everything below falls with it",
      [rootDept, deptAdapter],
      'revoked',
      0,
      {
        revocations: [revoke('root', rootDept.id, T0 + 10 * DAY)],
      },
    ),
    refusal('expired', "checked after the adapter's link expired", [rootDept, deptAdapter], 'expired', 1, {
      at: T0 + 200 * DAY,
    }),
    refusal(
      'not-yet-valid',
      "checked before the adapter's link starts",
      [rootDept, deptAdapter],
      'not_yet_valid',
      1,
      { at: T0 + 3600 },
    ),
  ];
}

function preimages(): DelegationVectors['preimages'] {
  const revocation = revoke('department', deptAdapter.id, T0 + 10 * DAY);
  return [
    { name: 'root-department', object: rootDept, preimage: delegationPreimage(rootDept), id: rootDept.id },
    {
      name: 'department-adapter',
      object: deptAdapter,
      preimage: delegationPreimage(deptAdapter),
      id: deptAdapter.id,
    },
    { name: 'revocation', object: revocation, preimage: revocationPreimage(revocation), id: revocation.id },
  ];
}

/** The vector file's text: two-space JSON and a final newline. */
export function delegationVectorsText(): string {
  const vectors: DelegationVectors = {
    description:
      'Key delegation chains (docs/protocol.md §11): fixed seeds (secret = SHA-256 of "xp/1 delegation vectors: <name>"), fixed nonces and times. Each case gives a chain (root first), the trusted roots, the time of the check and the revocations, and the outcome: the chain accepted with what it gives, or refused with a code and the index of the link.',
    max_chain_links: 8,
    keys,
    preimages: preimages(),
    cases: [...acceptedCases(), ...linkRefusals(), ...formAndTimeRefusals()],
  };
  // Every object here is plain JSON data; canonicalJson refuses anything else.
  canonicalJson(vectors);
  return `${JSON.stringify(vectors, null, 2)}\n`;
}
