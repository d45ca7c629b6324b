/**
 * docs/protocol.md §11.8 is enough to verify a rotation: a second verifier, written from the
 * section's text alone and sharing no code with this package (canonicalize@4 for RFC 8785,
 * @noble/hashes for SHA-256, @noble/curves for Ed25519), gets the verdict of every case of
 * testdata/vectors/xp-rotation.json. The section's example is held to the vector file.
 */

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import type { RotationVectors } from './_rotation-vectors.js';
import { loadVectors } from './_testdata.js';

const DOC = readFileSync(resolve(import.meta.dirname, '../../../docs/protocol.md'), 'utf8');
const vectors = loadVectors<RotationVectors>('xp-rotation.json');

// ---- The second verifier: §11.8's tables and preimage. ----

type Obj = Record<string, unknown>;
const KEY = /^ed25519:[0-9a-f]{64}$/;
const HEX = (n: number) => new RegExp(`^[0-9a-f]{${n}}$`);
const seconds = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const FIELDS = ['kind', 'old_key', 'new_key', 'created_at', 'grace_until', 'id', 'sig', 'successor_sig'];

function wellFormed(r: unknown): r is Obj {
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return false;
  const o = r as Obj;
  if (Object.keys(o).length !== FIELDS.length || FIELDS.some((k) => !(k in o))) return false;
  return (
    o.kind === 'xp.key.rotate' &&
    KEY.test(String(o.old_key)) &&
    KEY.test(String(o.new_key)) &&
    seconds(o.created_at) &&
    seconds(o.grace_until) &&
    (o.created_at as number) <= (o.grace_until as number) &&
    HEX(64).test(String(o.id)) &&
    HEX(128).test(String(o.sig)) &&
    HEX(128).test(String(o.successor_sig))
  );
}

/** §3 for the vectors' honest keys (none of small order or non-canonical). */
const signed = (sig: unknown, id: string, key: unknown) =>
  ed25519.verify(hexToBytes(String(sig)), hexToBytes(id), hexToBytes(String(key).slice(8)), {
    zip215: false,
  });

function secondVerifier(r: unknown): { ok: true } | { ok: false; code: string } {
  if (!wellFormed(r)) return { ok: false, code: 'shape' };
  if (r.old_key === r.new_key) return { ok: false, code: 'same_key' };
  const preimage = canonicalize(['xp/1/rotate', r.old_key, r.new_key, r.created_at, r.grace_until]) as string;
  const id = bytesToHex(sha256(new TextEncoder().encode(preimage)));
  if (id !== r.id) return { ok: false, code: 'id' };
  if (!signed(r.sig, id, r.old_key)) return { ok: false, code: 'signature' };
  if (!signed(r.successor_sig, id, r.new_key)) return { ok: false, code: 'successor_signature' };
  return { ok: true };
}

/** The fenced block after `<!-- marker -->`. */
function block(marker: string): string {
  const match = new RegExp(`<!-- ${marker} -->\\n\`\`\`(?:json)?\\n([\\s\\S]*?)\\n\`\`\``).exec(DOC);
  if (!match) throw new Error(`docs/protocol.md has no block after <!-- ${marker} -->`);
  return match[1]!;
}

describe('docs/protocol.md §11.8 suffices to verify a rotation', () => {
  it.each(vectors.cases.map((c) => [c.name, c] as const))(
    '%s: the second verifier agrees with the vector',
    (name, c) => {
      expect({ name, outcome: secondVerifier(c.rotation) }).toEqual({ name, outcome: c.expect });
    },
  );

  it('the example and its preimage are those of the vector file', () => {
    const entry = vectors.preimages.find((p) => p.name === 'rotation')!;
    expect(JSON.parse(block('rotation-example: rotation'))).toEqual(entry.object);
    expect(block('rotation-preimage: rotation')).toBe(entry.preimage);
    expect(bytesToHex(sha256(new TextEncoder().encode(entry.preimage)))).toBe(entry.id);
  });

  it('states the domain, the kind and the vector count', async () => {
    const { ROTATION_DOMAIN, ROTATION_KIND } = await import('../src/index.js');
    expect(DOC).toContain(`| \`${ROTATION_DOMAIN}\` |`);
    expect(DOC).toContain(`| \`kind\` | \`"${ROTATION_KIND}"\` |`);
    expect(DOC).toContain(`and ${vectors.cases.length} \`cases\``);
  });
});
