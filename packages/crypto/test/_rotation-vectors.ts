/**
 * Builds testdata/vectors/xp-rotation.json (docs/protocol.md §11.8): fixed seeds and times, so
 * every build writes the same bytes. Rotations are signed with this package's signer; every
 * expected outcome below is written by hand from the document, never computed by
 * `verifyRotation`. `rotation-vectors.test.ts` holds the file to this output and checks every case.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import {
  bytesToHex,
  canonicalJson,
  formatKey,
  hexToBytes,
  nobleSignatures,
  type Rotation,
  rotationPreimage,
  signRotation,
} from '../src/index.js';

/** One case: a rotation object and the verdict. */
export interface RotationVectorCase {
  name: string;
  description: string;
  rotation: unknown;
  expect: { ok: true } | { ok: false; code: string };
}

/** The whole file. */
export interface RotationVectors {
  description: string;
  keys: Record<string, { secret: string; public: string }>;
  preimages: { name: string; object: unknown; preimage: string; id: string }[];
  cases: RotationVectorCase[];
}

/** 2026-01-01T00:00:00Z. */
const T0 = 1_767_225_600;
const DAY = 86_400;

function seed(name: string): string {
  return bytesToHex(sha256(new TextEncoder().encode(`xp/1 rotation vectors: ${name}`)));
}

const keys = Object.fromEntries(
  ['old', 'new', 'other'].map((name) => {
    const secret = seed(name);
    return [
      name,
      { secret, public: formatKey('ed25519', nobleSignatures.publicKey(hexToBytes(secret, 32))) },
    ];
  }),
);
const secretOf = (name: string) => hexToBytes(keys[name]!.secret, 32);

/** Re-signs `fields` as the old key would, keeping what `keep` holds (the successor's signature). */
function resigned(
  fields: Omit<Rotation, 'id' | 'sig' | 'successor_sig'>,
  domain: string,
  keep: string,
): Rotation {
  const preimage = canonicalJson([
    domain,
    fields.old_key,
    fields.new_key,
    fields.created_at,
    fields.grace_until,
  ]);
  const idBytes = sha256(new TextEncoder().encode(preimage));
  return {
    ...fields,
    id: bytesToHex(idBytes),
    sig: bytesToHex(nobleSignatures.sign(idBytes, secretOf('old'))),
    successor_sig: keep,
  };
}

const valid = signRotation({ created_at: T0, grace_until: T0 + 7 * DAY }, secretOf('old'), secretOf('new'));

function refused(name: string, description: string, rotation: unknown, code: string): RotationVectorCase {
  return { name, description, rotation, expect: { ok: false, code } };
}

function cases(): RotationVectorCase[] {
  const { id: _id, sig: _sig, successor_sig: _successor, ...fields } = valid;
  const toOther = signRotation(
    { created_at: T0, grace_until: T0 + 7 * DAY },
    secretOf('old'),
    secretOf('other'),
  );
  const byOther = signRotation(
    { created_at: T0, grace_until: T0 + 7 * DAY },
    secretOf('other'),
    secretOf('new'),
  );
  return [
    {
      name: 'valid',
      description: 'old → new, a grace period of 7 days',
      rotation: valid,
      expect: { ok: true },
    },
    {
      name: 'valid-no-grace',
      description: 'grace_until equal to created_at: the old key stops at once',
      rotation: signRotation({ created_at: T0, grace_until: T0 }, secretOf('old'), secretOf('new')),
      expect: { ok: true },
    },
    refused(
      'shape-extra-field',
      'a field the object does not have',
      { ...valid, new_x25519: 'x25519:00' },
      'shape',
    ),
    refused('shape-missing-successor-sig', 'no successor_sig', fields, 'shape'),
    refused('shape-null-optional', 'successor_sig null', { ...valid, successor_sig: null }, 'shape'),
    refused(
      'shape-grace-before-created',
      'grace_until earlier than created_at',
      { ...valid, grace_until: T0 - 1 },
      'shape',
    ),
    refused('same-key', 'new_key equal to old_key', { ...valid, new_key: valid.old_key }, 'same_key'),
    refused(
      'id',
      'grace_until changed after signing',
      { ...valid, grace_until: valid.grace_until + DAY },
      'id',
    ),
    refused(
      'wrong-domain',
      'the id hashed with xp/1/event first instead of xp/1/rotate, and signed',
      resigned(fields, 'xp/1/event', valid.successor_sig),
      'id',
    ),
    refused('signature', 'signed by another key than old_key', { ...valid, sig: byOther.sig }, 'signature'),
    refused(
      'successor-signature-missing-consent',
      'old_key names new_key, but the successor signature is from another key (the one it first rotated to)',
      resigned(fields, 'xp/1/rotate', toOther.successor_sig),
      'successor_signature',
    ),
  ];
}

/** The file's text: pretty JSON, ending in a newline. */
export function rotationVectorsText(): string {
  const vectors: RotationVectors = {
    description:
      'Key rotations (docs/protocol.md §11.8): fixed seeds (secret = SHA-256 of "xp/1 rotation vectors: <name>") and times. Each case gives a rotation object and the verdict: accepted, or refused with a code.',
    keys,
    preimages: [{ name: 'rotation', object: valid, preimage: rotationPreimage(valid), id: valid.id }],
    cases: cases(),
  };
  canonicalJson(vectors);
  return `${JSON.stringify(vectors, null, 2)}\n`;
}
