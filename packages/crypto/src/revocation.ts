/**
 * Revocations (docs/protocol.md §11.2): a standalone object, signed by the issuer of a delegation
 * or by any key above it in the chain, that withdraws that delegation for good. Its preimage
 * starts with `xp/1/revoke`, its own signing domain. Which signers count is the chain check's
 * rule (`delegation-chain.ts`); this file reads, signs and verifies one object.
 * @module
 */
import { _FieldReader, _idBytes, _signatureHolds, _signPreimage } from './_signed-object.js';
import { canonicalJson } from './canonical-json.js';
import { nobleSignatures } from './ed25519-noble.js';
import { CryptoError } from './errors.js';
import { bytesToHex } from './hex.js';
import { type Ed25519KeyString, formatKey } from './key-string.js';
import type { SignatureBackend } from './signature-backend.js';

/** The `kind` of every revocation object (the reserved kind of docs/protocol.md §10.1). */
export const REVOCATION_KIND = 'xp.key.revoke';
/** The domain string that starts every revocation preimage. */
export const REVOCATION_DOMAIN = 'xp/1/revoke';

/** A signed revocation as it is stored and carried. */
export interface Revocation {
  readonly kind: typeof REVOCATION_KIND;
  /** The key that revokes: the revoked delegation's issuer or a key above it in the chain. */
  readonly issuer: Ed25519KeyString;
  /** The id of the revoked delegation: 64 lowercase hex. */
  readonly revoked: string;
  /** Unix seconds when it was made; informative only (a revocation holds at every time). */
  readonly created_at: number;
  /** SHA-256 of the preimage ({@link revocationPreimage}): 64 lowercase hex. */
  readonly id: string;
  /** The issuer's Ed25519 signature of the 32 id bytes: 128 lowercase hex. */
  readonly sig: string;
}

/** What the revoker decides; {@link signRevocation} adds the rest. */
export interface RevocationTemplate {
  readonly revoked: string;
  readonly created_at: number;
}

const FIELDS = ['kind', 'issuer', 'revoked', 'created_at', 'id', 'sig'] as const;

function _readUnsigned(fields: _FieldReader): Omit<Revocation, 'id' | 'sig'> {
  return {
    kind: fields.literal('kind', REVOCATION_KIND),
    issuer: fields.key('issuer'),
    revoked: fields.hex('revoked', 64),
    created_at: fields.seconds('created_at'),
  };
}

function _preimageOf(r: Omit<Revocation, 'id' | 'sig'>): string {
  return canonicalJson([REVOCATION_DOMAIN, r.issuer, r.revoked, r.created_at]);
}

/**
 * Checks that `value` has the shape of a revocation and returns it typed (a fresh object). It does
 * not check the id or the signature ({@link verifyRevocation}). Throws {@link CryptoError}
 * `INVALID_REVOCATION` naming the field: not an object, a missing or unknown field, `kind` not
 * `xp.key.revoke`, `issuer` not an `ed25519:` key string, `revoked`/`id` not 64 or `sig` not 128
 * lowercase hex digits, `created_at` not a non-negative safe integer.
 */
export function parseRevocation(value: unknown): Revocation {
  const fields = new _FieldReader(value, 'revocation', 'INVALID_REVOCATION', REVOCATION_KIND, FIELDS);
  return { ..._readUnsigned(fields), id: fields.hex('id', 64), sig: fields.hex('sig', 128) };
}

/**
 * The canonical preimage of a revocation id: the RFC 8785 serialization of
 * `["xp/1/revoke", issuer, revoked, created_at]`. Throws `INVALID_REVOCATION` naming the field
 * when `value` is not a valid unsigned revocation (`id` and `sig`, if present, are ignored).
 */
export function revocationPreimage(value: Omit<Revocation, 'id' | 'sig'>): string {
  const { id: _id, sig: _sig, ...rest } = value as Partial<Revocation>;
  return _preimageOf(
    _readUnsigned(
      new _FieldReader(rest, 'revocation', 'INVALID_REVOCATION', REVOCATION_KIND, FIELDS.slice(0, -2)),
    ),
  );
}

/**
 * Signs a revocation of the delegation `template.revoked` with the revoker's 32-byte secret key.
 * Throws {@link CryptoError} `INVALID_REVOCATION` naming the field, `INVALID_KEY` for a secret
 * key that is not 32 bytes.
 * @example
 * const revocation = signRevocation({ revoked: link.id, created_at: now }, departmentSecret);
 */
export function signRevocation(
  template: RevocationTemplate,
  secretKey: Uint8Array,
  backend: SignatureBackend = nobleSignatures,
): Revocation {
  const unsigned = _readUnsigned(
    new _FieldReader(
      {
        kind: REVOCATION_KIND,
        issuer: formatKey('ed25519', backend.publicKey(secretKey)),
        revoked: template.revoked,
        created_at: template.created_at,
      },
      'revocation',
      'INVALID_REVOCATION',
      REVOCATION_KIND,
      FIELDS.slice(0, -2),
    ),
  );
  return { ...unsigned, ..._signPreimage(_preimageOf(unsigned), secretKey, backend) };
}

/** The verdict of {@link verifyRevocation}. */
export type VerifyRevocationResult =
  | { readonly ok: true; readonly revocation: Revocation }
  | { readonly ok: false; readonly code: 'shape' | 'id' | 'signature'; readonly message: string };

/**
 * Checks one revocation: shape, that `id` is the recomputed id, and that `sig` is the issuer's
 * signature of the id bytes under the one rule (docs/protocol.md §3). Never throws. Whether this
 * issuer may revoke a given delegation is decided by `checkDelegationChain`.
 */
export function verifyRevocation(
  value: unknown,
  backend: SignatureBackend = nobleSignatures,
): VerifyRevocationResult {
  let revocation: Revocation;
  try {
    revocation = parseRevocation(value);
  } catch (error) {
    const message =
      error instanceof CryptoError ? error.message : `revocation: could not be read (${String(error)})`;
    return { ok: false, code: 'shape', message };
  }
  const idBytes = _idBytes(_preimageOf(revocation), backend);
  const id = bytesToHex(idBytes);
  if (id !== revocation.id) {
    return {
      ok: false,
      code: 'id',
      message: `revocation.id: expected ${id} (the recomputed id), got ${revocation.id}`,
    };
  }
  if (!_signatureHolds(revocation.sig, idBytes, revocation.issuer, backend)) {
    return {
      ok: false,
      code: 'signature',
      message: `revocation.sig: not a valid Ed25519 signature of the id by ${revocation.issuer} (${backend.name} backend)`,
    };
  }
  return { ok: true, revocation };
}
