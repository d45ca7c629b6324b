/**
 * Key rotations (docs/protocol.md §11.8): a standalone object by which a key names its successor,
 * signed by the old key and countersigned by the new one over the same id, with a grace period
 * during which the old key still answers. Its preimage starts with `xp/1/rotate`, its own signing
 * domain. Who follows a rotation and when is the caller's rule; this file reads, signs and
 * verifies one object.
 * @module
 */
import { _FieldReader, _idBytes, _signatureHolds, _signPreimage } from './_signed-object.js';
import { canonicalJson } from './canonical-json.js';
import { nobleSignatures } from './ed25519-noble.js';
import { CryptoError } from './errors.js';
import { bytesToHex } from './hex.js';
import { type Ed25519KeyString, formatKey } from './key-string.js';
import type { SignatureBackend } from './signature-backend.js';

/** The `kind` of every rotation object. */
export const ROTATION_KIND = 'xp.key.rotate';
/** The domain string that starts every rotation preimage. */
export const ROTATION_DOMAIN = 'xp/1/rotate';

/** A signed rotation as it is stored and carried. */
export interface Rotation {
  readonly kind: typeof ROTATION_KIND;
  /** The key being retired; it signs `sig`. */
  readonly old_key: Ed25519KeyString;
  /** Its successor; it signs `successor_sig`. */
  readonly new_key: Ed25519KeyString;
  /** Unix seconds when it was made; informative only. */
  readonly created_at: number;
  /** Unix seconds, not before `created_at`: the last second at which the old key may still be sent to. */
  readonly grace_until: number;
  /** SHA-256 of the preimage ({@link rotationPreimage}): 64 lowercase hex. */
  readonly id: string;
  /** The old key's Ed25519 signature of the 32 id bytes: 128 lowercase hex. */
  readonly sig: string;
  /** The new key's Ed25519 signature of the same 32 id bytes: 128 lowercase hex. */
  readonly successor_sig: string;
}

/** What the rotating operator decides; {@link signRotation} adds the rest. */
export interface RotationTemplate {
  readonly created_at: number;
  readonly grace_until: number;
}

const FIELDS = ['kind', 'old_key', 'new_key', 'created_at', 'grace_until', 'id', 'sig', 'successor_sig'];
const UNSIGNED_FIELDS = FIELDS.slice(0, -3);

type UnsignedRotation = Omit<Rotation, 'id' | 'sig' | 'successor_sig'>;

function _readUnsigned(fields: _FieldReader): UnsignedRotation {
  const created_at = fields.seconds('created_at');
  const grace_until = fields.seconds('grace_until');
  if (grace_until < created_at)
    fields.fail(
      'grace_until',
      `expected unix seconds not before created_at (${created_at}), got ${grace_until}`,
    );
  return {
    kind: fields.literal('kind', ROTATION_KIND),
    old_key: fields.key('old_key'),
    new_key: fields.key('new_key'),
    created_at,
    grace_until,
  };
}

function _preimageOf(r: UnsignedRotation): string {
  return canonicalJson([ROTATION_DOMAIN, r.old_key, r.new_key, r.created_at, r.grace_until]);
}

function _reader(value: unknown, fields: readonly string[]): _FieldReader {
  return new _FieldReader(value, 'rotation', 'INVALID_ROTATION', ROTATION_KIND, fields);
}

/**
 * Checks that `value` has the shape of a rotation and returns it typed (a fresh object). It does
 * not check the keys differ, the id or the signatures ({@link verifyRotation}). Throws
 * {@link CryptoError} `INVALID_ROTATION` naming the field: not an object, a missing or unknown
 * field, `kind` not `xp.key.rotate`, a key not an `ed25519:` key string, `id` not 64 or a signature
 * not 128 lowercase hex digits, a time not a non-negative safe integer, `grace_until` before
 * `created_at`.
 */
export function parseRotation(value: unknown): Rotation {
  const fields = _reader(value, FIELDS);
  return {
    ..._readUnsigned(fields),
    id: fields.hex('id', 64),
    sig: fields.hex('sig', 128),
    successor_sig: fields.hex('successor_sig', 128),
  };
}

/**
 * The canonical preimage of a rotation id: the RFC 8785 serialization of
 * `["xp/1/rotate", old_key, new_key, created_at, grace_until]`. Throws `INVALID_ROTATION` naming
 * the field when `value` is not a valid unsigned rotation (`id` and the signatures are ignored).
 */
export function rotationPreimage(value: UnsignedRotation): string {
  const { id: _id, sig: _sig, successor_sig: _successor, ...rest } = value as Partial<Rotation>;
  return _preimageOf(_readUnsigned(_reader(rest, UNSIGNED_FIELDS)));
}

/**
 * Signs a rotation from the key of `oldSecretKey` to the key of `newSecretKey` (both 32 bytes):
 * the old key signs the id, the new key countersigns it. Throws {@link CryptoError}
 * `INVALID_ROTATION` naming the field, or for two secrets of the same key; `INVALID_KEY` for a
 * secret key that is not 32 bytes.
 * @example
 * const rotation = signRotation({ created_at: now, grace_until: now + 7 * 86_400 }, oldSecret, newSecret);
 */
export function signRotation(
  template: RotationTemplate,
  oldSecretKey: Uint8Array,
  newSecretKey: Uint8Array,
  backend: SignatureBackend = nobleSignatures,
): Rotation {
  const unsigned = _readUnsigned(
    _reader(
      {
        kind: ROTATION_KIND,
        old_key: formatKey('ed25519', backend.publicKey(oldSecretKey)),
        new_key: formatKey('ed25519', backend.publicKey(newSecretKey)),
        created_at: template.created_at,
        grace_until: template.grace_until,
      },
      UNSIGNED_FIELDS,
    ),
  );
  if (unsigned.old_key === unsigned.new_key) {
    throw new CryptoError(
      'INVALID_ROTATION',
      `rotation.new_key: the same key as old_key (${unsigned.old_key}); a rotation names a different successor`,
    );
  }
  const { id, sig } = _signPreimage(_preimageOf(unsigned), oldSecretKey, backend);
  const successor = _signPreimage(_preimageOf(unsigned), newSecretKey, backend);
  return { ...unsigned, id, sig, successor_sig: successor.sig };
}

/** Why {@link verifyRotation} refuses a rotation, in checking order. */
export type RotationRefusal = 'shape' | 'same_key' | 'id' | 'signature' | 'successor_signature';

/** The verdict of {@link verifyRotation}. */
export type VerifyRotationResult =
  | { readonly ok: true; readonly rotation: Rotation }
  | { readonly ok: false; readonly code: RotationRefusal; readonly message: string };

/**
 * Checks one rotation, the first failure being the verdict: its shape, that the two keys differ,
 * that `id` is the recomputed id, that `sig` is the old key's and `successor_sig` the new key's
 * signature of the id bytes under the one rule (docs/protocol.md §3). Never throws. Whether the
 * grace period still holds is {@link rotationInGrace}.
 */
export function verifyRotation(
  value: unknown,
  backend: SignatureBackend = nobleSignatures,
): VerifyRotationResult {
  let rotation: Rotation;
  try {
    rotation = parseRotation(value);
  } catch (error) {
    const message =
      error instanceof CryptoError ? error.message : `rotation: could not be read (${String(error)})`;
    return { ok: false, code: 'shape', message };
  }
  if (rotation.old_key === rotation.new_key) {
    return {
      ok: false,
      code: 'same_key',
      message: `rotation.new_key: the same key as old_key (${rotation.old_key})`,
    };
  }
  const idBytes = _idBytes(_preimageOf(rotation), backend);
  const id = bytesToHex(idBytes);
  if (id !== rotation.id) {
    return {
      ok: false,
      code: 'id',
      message: `rotation.id: expected ${id} (the recomputed id), got ${rotation.id}`,
    };
  }
  if (!_signatureHolds(rotation.sig, idBytes, rotation.old_key, backend)) {
    return {
      ok: false,
      code: 'signature',
      message: `rotation.sig: not a valid Ed25519 signature of the id by the old key ${rotation.old_key} (${backend.name} backend)`,
    };
  }
  if (!_signatureHolds(rotation.successor_sig, idBytes, rotation.new_key, backend)) {
    return {
      ok: false,
      code: 'successor_signature',
      message: `rotation.successor_sig: not a valid Ed25519 signature of the id by the new key ${rotation.new_key} (${backend.name} backend): a key can only be named as a successor with its own consent`,
    };
  }
  return { ok: true, rotation };
}

/** Whether the old key of `rotation` may still be sent to at `at` (unix seconds): up to and including `grace_until`. */
export function rotationInGrace(rotation: Pick<Rotation, 'grace_until'>, at: number): boolean {
  return at <= rotation.grace_until;
}
