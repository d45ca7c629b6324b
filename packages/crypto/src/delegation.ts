/**
 * Key delegations (docs/protocol.md §11.1): a standalone object, signed by its issuer, that gives
 * another key a set of capabilities for a window of time, optionally on behalf of a user, and
 * names the issuer's own delegation (`proof`) so a chain can be carried or fetched. Its id is the
 * SHA-256 of a preimage that starts with `xp/1/delegate`, so its signature can never stand for an
 * event's, a revocation's or any other object's. Checking a whole chain is `delegation-chain.ts`.
 * @module
 */
import { randomBytes } from '@noble/hashes/utils.js';
import { _describeValue, _FieldReader, _idBytes, _signatureHolds, _signPreimage } from './_signed-object.js';
import { canonicalJson } from './canonical-json.js';
import { isValidGrant } from './capability.js';
import { nobleSignatures } from './ed25519-noble.js';
import { CryptoError } from './errors.js';
import { bytesToHex } from './hex.js';
import { type Ed25519KeyString, formatKey } from './key-string.js';
import type { SignatureBackend } from './signature-backend.js';

/** The `kind` of every delegation object (the reserved kind of docs/protocol.md §10.1). */
export const DELEGATION_KIND = 'xp.key.delegate';
/** The domain string that starts every delegation preimage. */
export const DELEGATION_DOMAIN = 'xp/1/delegate';
/** The most capabilities one delegation may list. */
export const MAX_DELEGATION_CAPABILITIES = 64;

/** A signed key delegation as it is stored and carried (field order as written by {@link signDelegation}). */
export interface Delegation {
  readonly kind: typeof DELEGATION_KIND;
  /** The key that signs it: the trusted root, or the key the previous link delegates to. */
  readonly issuer: Ed25519KeyString;
  /** The key that receives the capabilities. */
  readonly delegated_key: Ed25519KeyString;
  /** Grants (docs/design.md §4): `a.b.c`, `a.b.*` or `*`; 1 to 64, no duplicates. */
  readonly capabilities: readonly string[];
  /** The user this key acts for (docs/protocol.md §11.1); absent when it acts for itself. */
  readonly on_behalf_of?: Ed25519KeyString;
  /** Unix seconds: valid from this second on. */
  readonly not_before: number;
  /** Unix seconds: valid up to and including this second. */
  readonly expires_at: number;
  /** 32 lowercase hex digits (16 random bytes): two otherwise equal delegations differ. */
  readonly nonce: string;
  /** The id of the issuer's own delegation; absent when the issuer is a root. */
  readonly proof?: string;
  /** SHA-256 of the preimage ({@link delegationPreimage}): 64 lowercase hex. */
  readonly id: string;
  /** The issuer's Ed25519 signature of the 32 id bytes: 128 lowercase hex. */
  readonly sig: string;
}

/** Everything the id covers. */
export type UnsignedDelegation = Omit<Delegation, 'id' | 'sig'>;

/** What the issuer decides; {@link signDelegation} adds `kind`, `issuer`, `id`, `sig` (and a nonce when absent). */
export interface DelegationTemplate {
  readonly delegated_key: Ed25519KeyString;
  readonly capabilities: readonly string[];
  /** Absent (or `undefined`) when the delegate acts for itself. */
  readonly on_behalf_of?: Ed25519KeyString | undefined;
  readonly not_before: number;
  readonly expires_at: number;
  /** 32 lowercase hex digits; 16 random bytes when absent. Fix it only for test vectors. */
  readonly nonce?: string | undefined;
  /** Absent (or `undefined`) when the issuer is a root. */
  readonly proof?: string | undefined;
}

const REQUIRED = [
  'kind',
  'issuer',
  'delegated_key',
  'capabilities',
  'not_before',
  'expires_at',
  'nonce',
  'id',
  'sig',
] as const;
const OPTIONAL = ['on_behalf_of', 'proof'] as const;

/**
 * The fields the id covers, checked; throws `INVALID_DELEGATION` naming the field. The reader
 * holds either a whole received object or an unsigned one (`id` and `sig` not required then).
 */
function _readUnsigned(fields: _FieldReader): UnsignedDelegation {
  const kind = fields.literal('kind', DELEGATION_KIND);
  const issuer = fields.key('issuer');
  const delegated_key = fields.key('delegated_key');
  const capabilities = _readCapabilities(fields);
  const on_behalf_of = fields.has('on_behalf_of') ? fields.key('on_behalf_of') : undefined;
  const not_before = fields.seconds('not_before');
  const expires_at = fields.seconds('expires_at');
  if (expires_at < not_before) {
    fields.fail('expires_at', `expected a time at or after not_before (${not_before}), got ${expires_at}`);
  }
  const nonce = fields.hex('nonce', 32);
  const proof = fields.has('proof') ? fields.hex('proof', 64) : undefined;
  return {
    kind,
    issuer,
    delegated_key,
    capabilities,
    ...(on_behalf_of === undefined ? {} : { on_behalf_of }),
    not_before,
    expires_at,
    nonce,
    ...(proof === undefined ? {} : { proof }),
  };
}

function _readCapabilities(fields: _FieldReader): string[] {
  const value = fields.raw('capabilities');
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_DELEGATION_CAPABILITIES) {
    fields.fail(
      'capabilities',
      `expected an array of 1 to ${MAX_DELEGATION_CAPABILITIES} grants, got ${_describeValue(value)}`,
    );
  }
  const seen = new Set<string>();
  value.forEach((grant: unknown, i) => {
    if (!isValidGrant(grant)) {
      fields.fail(
        `capabilities[${i}]`,
        `expected a grant (dot-separated segments of [A-Za-z0-9_-]+, optionally ending in ".*", or "*" alone; at most 255 characters), got ${_describeValue(grant)}`,
      );
    }
    if (seen.has(grant)) fields.fail(`capabilities[${i}]`, `${JSON.stringify(grant)} is listed twice`);
    seen.add(grant);
  });
  return [...seen];
}

/**
 * Checks that `value` has the shape of a delegation (docs/protocol.md §11.1) and returns it typed:
 * a fresh object with exactly its fields. It does not check the id or the signature
 * ({@link verifyDelegation}) nor the chain (`checkDelegationChain`).
 *
 * Throws {@link CryptoError} `INVALID_DELEGATION` naming the field: not an object; a missing or
 * unknown field; `kind` not `xp.key.delegate`; a key not an `ed25519:` key string; `capabilities`
 * not 1 to 64 distinct grants; a time not a non-negative safe integer; `expires_at` before
 * `not_before`; `nonce` not 32 or `proof`/`id` not 64 or `sig` not 128 lowercase hex digits.
 * @example
 * const delegation = parseDelegation(JSON.parse(text)); // or throws naming the bad field
 */
export function parseDelegation(value: unknown): Delegation {
  const fields = new _FieldReader(
    value,
    'delegation',
    'INVALID_DELEGATION',
    DELEGATION_KIND,
    REQUIRED,
    OPTIONAL,
  );
  const unsigned = _readUnsigned(fields);
  return { ...unsigned, id: fields.hex('id', 64), sig: fields.hex('sig', 128) };
}

/**
 * The canonical preimage of a delegation id: the RFC 8785 serialization of
 * `["xp/1/delegate", issuer, delegated_key, capabilities, on_behalf_of or null, not_before,
 * expires_at, nonce, proof or null]`. Throws `INVALID_DELEGATION` naming the field when `value`
 * is not a valid unsigned delegation (`id` and `sig`, if present, are ignored).
 */
export function delegationPreimage(value: UnsignedDelegation): string {
  const { id: _id, sig: _sig, ...rest } = value as Partial<Delegation>;
  const unsigned = _readUnsigned(
    new _FieldReader(
      rest,
      'delegation',
      'INVALID_DELEGATION',
      DELEGATION_KIND,
      REQUIRED.slice(0, -2),
      OPTIONAL,
    ),
  );
  return _preimageOf(unsigned);
}

function _preimageOf(d: UnsignedDelegation): string {
  return canonicalJson([
    DELEGATION_DOMAIN,
    d.issuer,
    d.delegated_key,
    d.capabilities,
    d.on_behalf_of ?? null,
    d.not_before,
    d.expires_at,
    d.nonce,
    d.proof ?? null,
  ]);
}

/** The delegation id, 64 lowercase hex: SHA-256 of {@link delegationPreimage}. */
export function computeDelegationId(
  value: UnsignedDelegation,
  backend?: Pick<SignatureBackend, 'sha256'>,
): string {
  return bytesToHex(_idBytes(delegationPreimage(value), backend));
}

/**
 * Signs a delegation with the issuer's 32-byte Ed25519 secret key (seed): derives `issuer`, draws
 * a nonce when the template has none, computes the id and signs its 32 bytes. It checks only the
 * object's own shape; whether the issuer may delegate these capabilities is the chain check's
 * question. Throws {@link CryptoError} `INVALID_DELEGATION` naming the field, `INVALID_KEY` for a
 * secret key that is not 32 bytes.
 * @example
 * const link = signDelegation(
 *   { delegated_key, capabilities: ['com.acme.docs.read'], not_before: now, expires_at: now + 86_400 },
 *   departmentSecret,
 * );
 */
export function signDelegation(
  template: DelegationTemplate,
  secretKey: Uint8Array,
  backend: SignatureBackend = nobleSignatures,
): Delegation {
  // An optional field given as `undefined` is absent, not a malformed value.
  const given = Object.fromEntries(Object.entries(template).filter(([, value]) => value !== undefined));
  const candidate = {
    kind: DELEGATION_KIND,
    issuer: formatKey('ed25519', backend.publicKey(secretKey)),
    ...given,
    nonce: template.nonce ?? bytesToHex(randomBytes(16)),
  };
  const unsigned = _readUnsigned(
    new _FieldReader(
      candidate,
      'delegation',
      'INVALID_DELEGATION',
      DELEGATION_KIND,
      REQUIRED.slice(0, -2),
      OPTIONAL,
    ),
  );
  return { ...unsigned, ..._signPreimage(_preimageOf(unsigned), secretKey, backend) };
}

/** Why a single delegation failed {@link verifyDelegation}. */
export type DelegationRejection = 'shape' | 'id' | 'signature';

/** The verdict of {@link verifyDelegation}. */
export type VerifyDelegationResult =
  | { readonly ok: true; readonly delegation: Delegation }
  | { readonly ok: false; readonly code: DelegationRejection; readonly message: string };

/**
 * @internal Shape and id of one delegation, with its id bytes for the signature check. Never
 * throws: a getter that throws is as malformed as a wrong field.
 */
export function _checkDelegationForm(
  value: unknown,
  backend: SignatureBackend,
):
  | { readonly ok: true; readonly delegation: Delegation; readonly idBytes: Uint8Array }
  | { readonly ok: false; readonly code: 'shape' | 'id'; readonly message: string } {
  let delegation: Delegation;
  try {
    delegation = parseDelegation(value);
  } catch (error) {
    const message =
      error instanceof CryptoError ? error.message : `delegation: could not be read (${String(error)})`;
    return { ok: false, code: 'shape', message };
  }
  const idBytes = _idBytes(_preimageOf(delegation), backend);
  const id = bytesToHex(idBytes);
  if (id !== delegation.id) {
    return {
      ok: false,
      code: 'id',
      message: `delegation.id: expected ${id} (the recomputed id), got ${delegation.id}`,
    };
  }
  return { ok: true, delegation, idBytes };
}

/** @internal Whether the delegation's signature holds under its issuer's key. */
export function _delegationSignatureHolds(
  delegation: Delegation,
  idBytes: Uint8Array,
  backend: SignatureBackend,
): boolean {
  return _signatureHolds(delegation.sig, idBytes, delegation.issuer, backend);
}

/**
 * Checks one delegation on its own: shape, that `id` is the recomputed id, and that `sig` is the
 * issuer's signature of the id bytes under the one rule (docs/protocol.md §3). Never throws. This
 * says nothing about whether the issuer had the authority: that is `checkDelegationChain`.
 * @example
 * const verdict = verifyDelegation(JSON.parse(text), nodeSignatures);
 */
export function verifyDelegation(
  value: unknown,
  backend: SignatureBackend = nobleSignatures,
): VerifyDelegationResult {
  const form = _checkDelegationForm(value, backend);
  if (!form.ok) return form;
  if (!_delegationSignatureHolds(form.delegation, form.idBytes, backend)) {
    return {
      ok: false,
      code: 'signature',
      message: `delegation.sig: not a valid Ed25519 signature of the id by ${form.delegation.issuer} (${backend.name} backend)`,
    };
  }
  return { ok: true, delegation: form.delegation };
}
