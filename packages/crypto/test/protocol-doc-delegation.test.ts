/**
 * docs/protocol.md §11 is enough to check a chain: a second checker, written from the section's
 * text alone and sharing no code with this package (canonicalize@4 for RFC 8785, @noble/hashes
 * for SHA-256, @noble/curves for Ed25519), gets the expected outcome of every case of
 * testdata/vectors/xp-delegation.json. The section's examples are held to the vector file, and
 * its constants to the ones the package exports.
 */

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import type { DelegationVectors } from './_delegation-vectors.js';
import { loadVectors } from './_testdata.js';

const DOC = readFileSync(resolve(import.meta.dirname, '../../../docs/protocol.md'), 'utf8');
const vectors = loadVectors<DelegationVectors>('xp-delegation.json');

// ---- The second checker: §11.1–§11.4, step by step. ----

type Obj = Record<string, unknown>;
const KEY = /^ed25519:[0-9a-f]{64}$/;
const HEX = (n: number) => new RegExp(`^[0-9a-f]{${n}}$`);
const GRANT = /^(\*|[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*(\.\*)?)$/;
const seconds = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const hash = (preimage: string) => bytesToHex(sha256(new TextEncoder().encode(preimage)));
const jcs = (value: unknown) => canonicalize(value) as string;

/** §11.1's table: exactly these fields, each of its type. */
function wellFormed(d: unknown): d is Obj {
  if (typeof d !== 'object' || d === null || Array.isArray(d)) return false;
  const o = d as Obj;
  const required = [
    'kind',
    'issuer',
    'delegated_key',
    'capabilities',
    'not_before',
    'expires_at',
    'nonce',
    'id',
    'sig',
  ];
  if (Object.keys(o).some((k) => !required.includes(k) && k !== 'on_behalf_of' && k !== 'proof'))
    return false;
  if (required.some((k) => !(k in o))) return false;
  const caps = o.capabilities;
  return (
    o.kind === 'xp.key.delegate' &&
    KEY.test(String(o.issuer)) &&
    KEY.test(String(o.delegated_key)) &&
    Array.isArray(caps) &&
    caps.length >= 1 &&
    caps.length <= 64 &&
    new Set(caps).size === caps.length &&
    caps.every((c) => typeof c === 'string' && c.length <= 255 && GRANT.test(c)) &&
    (!('on_behalf_of' in o) || KEY.test(String(o.on_behalf_of))) &&
    seconds(o.not_before) &&
    seconds(o.expires_at) &&
    (o.not_before as number) <= (o.expires_at as number) &&
    HEX(32).test(String(o.nonce)) &&
    (!('proof' in o) || HEX(64).test(String(o.proof))) &&
    HEX(64).test(String(o.id)) &&
    HEX(128).test(String(o.sig))
  );
}

const delegationId = (d: Obj) =>
  hash(
    jcs([
      'xp/1/delegate',
      d.issuer,
      d.delegated_key,
      d.capabilities,
      d.on_behalf_of ?? null,
      d.not_before,
      d.expires_at,
      d.nonce,
      d.proof ?? null,
    ]),
  );

/**
 * §3 for the vectors' honest keys: none is of small order or non-canonical, where noble's
 * cofactored `verify` and the one rule could differ.
 */
const signedBy = (o: Obj, id: string) =>
  ed25519.verify(hexToBytes(String(o.sig)), hexToBytes(id), hexToBytes(String(o.issuer).slice(8)), {
    zip215: false,
  });

const covers = (h: string, c: string) =>
  h === '*' || h === c || (h.endsWith('.*') && c.startsWith(h.slice(0, -1)));

function validRevocation(r: unknown): r is Obj {
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return false;
  const o = r as Obj;
  const fields = ['kind', 'issuer', 'revoked', 'created_at', 'id', 'sig'];
  if (Object.keys(o).length !== fields.length || fields.some((k) => !(k in o))) return false;
  if (o.kind !== 'xp.key.revoke' || !KEY.test(String(o.issuer)) || !HEX(64).test(String(o.revoked)))
    return false;
  if (!seconds(o.created_at) || !HEX(64).test(String(o.id)) || !HEX(128).test(String(o.sig))) return false;
  const id = hash(jcs(['xp/1/revoke', o.issuer, o.revoked, o.created_at]));
  return id === o.id && signedBy(o, id);
}

type Outcome = { ok: false; code: string; link?: number } | ({ ok: true } & Obj);

/** Steps 4–10 of §11.4 for link i; a refusal code or undefined. */
function linkStep(chain: Obj[], i: number, roots: string[]): string | undefined {
  const d = chain[i]!;
  const up = chain[i - 1];
  if (i === 0 ? !roots.includes(String(d.issuer)) : d.issuer !== up!.delegated_key)
    return i === 0 ? 'untrusted_root' : 'wrong_signer';
  if (up && d.proof !== up.id) return 'proof_mismatch';
  if (!signedBy(d, String(d.id))) return 'signature';
  const earlier = [chain[0]!.issuer, ...chain.slice(0, i).map((l) => l.delegated_key)];
  if (earlier.includes(d.delegated_key)) return 'cycle';
  const held = (up?.capabilities ?? ['*']) as string[];
  if (!(d.capabilities as string[]).every((c) => held.some((h) => covers(h, c)))) return 'widened';
  if (
    up?.on_behalf_of !== undefined
      ? d.on_behalf_of !== up.on_behalf_of
      : d.on_behalf_of !== undefined && d.on_behalf_of !== d.issuer
  )
    return 'on_behalf_of';
  if (up && (d.not_before as number) < (up.not_before as number)) return 'backdated';
  return undefined;
}

/** §11.4, phases 1 to 4. */
function secondChecker(chain: unknown, roots: string[], at: number, revocations: unknown[]): Outcome {
  if (!Array.isArray(chain) || chain.length === 0) return { ok: false, code: 'shape' };
  if (chain.length > 8) return { ok: false, code: 'depth', link: 8 };
  for (let i = 0; i < chain.length; i++) {
    if (!wellFormed(chain[i])) return { ok: false, code: 'shape', link: i };
    if (delegationId(chain[i]) !== chain[i].id) return { ok: false, code: 'id', link: i };
  }
  const links = chain as Obj[];
  for (let i = 0; i < links.length; i++) {
    const code = linkStep(links, i, roots);
    if (code) return { ok: false, code, link: i };
  }
  for (let i = 0; i < links.length; i++) {
    const eligible = links.slice(0, i + 1).map((l) => l.issuer);
    if (
      revocations.some((r) => validRevocation(r) && r.revoked === links[i]!.id && eligible.includes(r.issuer))
    )
      return { ok: false, code: 'revoked', link: i };
  }
  for (let i = 0; i < links.length; i++) {
    if (at < (links[i]!.not_before as number)) return { ok: false, code: 'not_yet_valid', link: i };
    if (at > (links[i]!.expires_at as number)) return { ok: false, code: 'expired', link: i };
  }
  const last = links[links.length - 1]!;
  return {
    ok: true,
    chain_id: hash(jcs(['xp/1/chain', links.map((l) => l.id)])),
    root: links[0]!.issuer,
    delegated_key: last.delegated_key,
    capabilities: last.capabilities,
    ...(last.on_behalf_of === undefined ? {} : { on_behalf_of: last.on_behalf_of }),
    not_before: Math.max(...links.map((l) => l.not_before as number)),
    expires_at: Math.min(...links.map((l) => l.expires_at as number)),
  };
}

// ---- The checks. ----

/** The fenced block after `<!-- marker -->` in §11. */
function block(marker: string): string {
  const match = new RegExp(`<!-- ${marker} -->\\n\`\`\`(?:json)?\\n([\\s\\S]*?)\\n\`\`\``).exec(DOC);
  if (!match) throw new Error(`docs/protocol.md has no block after <!-- ${marker} -->`);
  return match[1]!;
}

describe('docs/protocol.md §11 suffices to check a chain', () => {
  it('the 3-level vector: the second checker accepts root → department → adapter', () => {
    const c = vectors.cases.find((v) => v.name === 'valid-3-level')!;
    expect(secondChecker(c.chain, c.trusted_roots, c.at, c.revocations)).toEqual(c.expect);
    expect(c.expect.ok).toBe(true);
  });

  it.each(vectors.cases.map((c) => [c.name, c] as const))(
    '%s: the second checker agrees with the vector',
    (name, c) => {
      expect({ name, outcome: secondChecker(c.chain, c.trusted_roots, c.at, c.revocations) }).toEqual({
        name,
        outcome: c.expect,
      });
    },
  );

  it.each(['department-adapter', 'revocation'])(
    'the example %s and its preimage are those of the vector file',
    (name) => {
      const entry = vectors.preimages.find((p) => p.name === name)!;
      expect(JSON.parse(block(`delegation-example: ${name}`))).toEqual(entry.object);
      expect(block(`delegation-preimage: ${name}`)).toBe(entry.preimage);
      expect(hash(entry.preimage)).toBe(entry.id);
    },
  );

  it('states the limits the package uses, and the vector count', async () => {
    const {
      MAX_CHAIN_LINKS,
      MAX_DELEGATION_CAPABILITIES,
      DELEGATION_DOMAIN,
      REVOCATION_DOMAIN,
      CHAIN_DOMAIN,
    } = await import('../src/index.js');
    expect(DOC).toContain(`It has at most **${MAX_CHAIN_LINKS}** elements`);
    expect(DOC).toContain(`an array of 1 to ${MAX_DELEGATION_CAPABILITIES} distinct grants`);
    for (const domain of [DELEGATION_DOMAIN, REVOCATION_DOMAIN, CHAIN_DOMAIN])
      expect(DOC).toContain(`| \`${domain}\` |`);
    expect(DOC).toContain(`and ${vectors.cases.length} \`cases\``);
  });
});
