/**
 * What the protocol's standalone signed objects (a key delegation, a revocation; docs/protocol.md
 * §11) share: an exact field set read strictly, with errors that name the field, and an id that
 * is the SHA-256 of a preimage starting with the object's own domain string, signed like an
 * event id. Internal to this package.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { CryptoError, type CryptoErrorCode } from './errors.js';
import { bytesToHex, hexToBytes } from './hex.js';
import { type Ed25519KeyString, isKeyString, parseKey } from './key-string.js';
import type { SignatureBackend } from './signature-backend.js';

const HEX = /^[0-9a-f]+$/;
const encoder = new TextEncoder();

/** @internal A short, safe description of a received value for an error message. */
export function _describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string')
    return JSON.stringify(value.length > 72 ? `${value.slice(0, 69)}...` : value);
  if (typeof value === 'number') return String(value);
  return typeof value;
}

/**
 * @internal Reads a signed object's fields strictly: `what` names it in errors (`delegation`),
 * `code` is the {@link CryptoError} code thrown.
 */
export class _FieldReader {
  readonly #record: Record<string, unknown>;
  readonly #what: string;
  readonly #code: CryptoErrorCode;

  /**
   * Checks that `value` is a plain object of `expectedKind` (when it has a `kind`), whose fields
   * are all in `required` or `optional`, and that every `required` one is present.
   */
  constructor(
    value: unknown,
    what: string,
    code: CryptoErrorCode,
    expectedKind: string | undefined,
    required: readonly string[],
    optional: readonly string[] = [],
  ) {
    this.#what = what;
    this.#code = code;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new CryptoError(code, `${what}: expected a JSON object, got ${_describeValue(value)}`);
    }
    this.#record = value as Record<string, unknown>;
    // Another object altogether (a revocation where a delegation belongs) is named by its kind
    // first, rather than by the first field that does not fit.
    if (expectedKind !== undefined && Object.hasOwn(this.#record, 'kind')) this.literal('kind', expectedKind);
    const known = [...required, ...optional];
    for (const key of Object.keys(this.#record)) {
      if (!known.includes(key)) {
        this.fail(
          key,
          `unexpected field; a ${what} has ${required.join(', ')}${optional.length > 0 ? ` and optionally ${optional.join(', ')}` : ''}`,
        );
      }
    }
    for (const key of required) if (!Object.hasOwn(this.#record, key)) this.fail(key, 'missing');
  }

  /** Throws the reader's error for `field`. */
  fail(field: string, message: string): never {
    throw new CryptoError(this.#code, `${this.#what}.${field}: ${message}`);
  }

  /** Whether the optional `field` is present. */
  has(field: string): boolean {
    return Object.hasOwn(this.#record, field);
  }

  /** The raw value of `field`. */
  raw(field: string): unknown {
    return this.#record[field];
  }

  /** `field` must be exactly `expected`. */
  literal<T extends string>(field: string, expected: T): T {
    const value = this.#record[field];
    if (value !== expected)
      this.fail(field, `expected ${JSON.stringify(expected)}, got ${_describeValue(value)}`);
    return expected;
  }

  /** An `ed25519:` key string. */
  key(field: string): Ed25519KeyString {
    const value = this.#record[field];
    if (!isKeyString(value, 'ed25519')) {
      this.fail(
        field,
        `expected "ed25519:" followed by 64 lowercase hex digits, got ${_describeValue(value)}`,
      );
    }
    return value as Ed25519KeyString;
  }

  /** `digits` lowercase hex digits. */
  hex(field: string, digits: number): string {
    const value = this.#record[field];
    if (typeof value !== 'string' || value.length !== digits || !HEX.test(value)) {
      this.fail(field, `expected ${digits} lowercase hex digits, got ${_describeValue(value)}`);
    }
    return value;
  }

  /** Unix seconds: a non-negative safe integer. */
  seconds(field: string): number {
    const value = this.#record[field];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      this.fail(field, `expected unix seconds (a non-negative safe integer), got ${_describeValue(value)}`);
    }
    return value;
  }
}

/** @internal The 32 id bytes of a preimage: SHA-256 of its UTF-8, with the backend's hash when it has one. */
export function _idBytes(preimage: string, backend?: Pick<SignatureBackend, 'sha256'>): Uint8Array {
  const bytes = encoder.encode(preimage);
  return backend?.sha256 ? backend.sha256(bytes) : sha256(bytes);
}

/** @internal Whether `sig` (128 hex) is `signer`'s signature of `idBytes` under the one rule. */
export function _signatureHolds(
  sig: string,
  idBytes: Uint8Array,
  signer: Ed25519KeyString,
  backend: SignatureBackend,
): boolean {
  return backend.verify(hexToBytes(sig, 64), idBytes, parseKey(signer, 'ed25519').bytes);
}

/** @internal The id (hex) and signature (hex) of a preimage signed with `secretKey`. */
export function _signPreimage(
  preimage: string,
  secretKey: Uint8Array,
  backend: SignatureBackend,
): { id: string; sig: string } {
  const idBytes = _idBytes(preimage, backend);
  return { id: bytesToHex(idBytes), sig: bytesToHex(backend.sign(idBytes, secretKey)) };
}
