/**
 * Sealed events (docs/protocol.md §6.3): a request, response or error whose payload is encrypted
 * to one recipient and whose envelope — recipient, sender's X25519 key, reply-to id, expiration —
 * is bound by the sender's signature.
 * @module
 */
import { _base64Decode } from './_base64.js';
import { canonicalJson } from './canonical-json.js';
import type { CipherBackend } from './cipher-backend.js';
import { nobleCipher } from './cipher-noble.js';
import { conversationKey } from './conversation-key.js';
import { nobleSignatures } from './ed25519-noble.js';
import { CryptoError } from './errors.js';
import { createEventTemplate, getTags, type XpEvent } from './event.js';
import { signEvent } from './event-sign.js';
import { verifyEvent } from './event-verify.js';
import type { Identity, PublicIdentity } from './identity.js';
import { type Ed25519KeyString, isKeyString, parseKey, type X25519KeyString } from './key-string.js';
import { decryptPayload, encryptPayload, type PayloadVersion } from './nip44.js';
import type { SignatureBackend } from './signature-backend.js';

/** What to seal. Give exactly one of `payload` and `plaintext`. */
export interface SealInput {
  /** The event kind, e.g. `com.test.fs.read_text_file` or `xp.error`. */
  readonly kind: string;
  /**
   * A JSON value (object, array, string, number, boolean or null), serialized as RFC 8785
   * canonical JSON; integers beyond ±(2^53 − 1) are allowed here, anything that is not plain JSON
   * data (`undefined`, `NaN`, a `Date`, a cycle, a lone surrogate) is refused.
   */
  readonly payload?: unknown;
  /** The exact text to encrypt, instead of `payload`. */
  readonly plaintext?: string;
  /** The id of the event this answers (64 lowercase hex): adds `["e", id]` (responses, errors). */
  readonly replyTo?: string;
  /** Unix seconds after which the event must not be acted on: adds `["expiration", "<unix>"]`. */
  readonly expiration?: number;
  /** Unix seconds; now by default. */
  readonly created_at?: number;
  /** Further tags. `p`, `x25519`, `e` and `expiration` are set by the fields above and refused here. */
  readonly tags?: readonly (readonly string[])[];
}

/** The backends a sealed event is signed/verified and encrypted/decrypted with (noble by default). */
export interface EnvelopeBackends {
  readonly signatures?: SignatureBackend;
  readonly cipher?: CipherBackend;
}

/** Options of {@link sealEvent}. */
export interface SealOptions extends EnvelopeBackends {
  /** The 32-byte payload nonce; random by default. Fix it only for test vectors. */
  readonly nonce?: Uint8Array;
}

/** A verified, decrypted event. */
export interface OpenedEvent {
  /** The event as verified (a fresh copy with exactly the seven fields). */
  readonly event: XpEvent;
  /** The sender: `event.pubkey` and the X25519 key from its `x25519` tag — where to seal the answer. */
  readonly sender: PublicIdentity;
  /** The decrypted text. */
  readonly plaintext: string;
  /** The payload version the content used. */
  readonly version: PayloadVersion;
}

/** An {@link OpenedEvent} whose plaintext parsed as JSON. */
export interface OpenedJsonEvent extends OpenedEvent {
  readonly payload: unknown;
}

const RESERVED_TAGS = new Set(['p', 'x25519', 'e', 'expiration']);
const EVENT_ID = /^[0-9a-f]{64}$/;

function invalidEvent(message: string): CryptoError {
  return new CryptoError('INVALID_EVENT', message);
}

function plaintextOf(input: SealInput): string {
  const hasPayload = Object.hasOwn(input, 'payload');
  const hasPlaintext = input.plaintext !== undefined;
  if (hasPayload === hasPlaintext) {
    throw new CryptoError(
      'INVALID_PAYLOAD',
      'expected exactly one of `payload` (a JSON value) and `plaintext` (a string)',
    );
  }
  if (hasPlaintext) {
    if (typeof input.plaintext !== 'string') {
      throw new CryptoError(
        'INVALID_PAYLOAD',
        `expected \`plaintext\` as a string, got ${typeof input.plaintext}`,
      );
    }
    return input.plaintext;
  }
  return canonicalJson(input.payload, { allowUnsafeIntegers: true });
}

/**
 * Builds, encrypts and signs an event to one recipient. Tags, in order: `["p", recipient
 * ed25519]`, `["x25519", sender x25519]`, then `["e", replyTo]` if given, then `input.tags`, then
 * `["expiration", "<unix>"]` if given. `content` is the payload encrypted under the conversation
 * key of sender and recipient (version 2, or 3 over 65,535 bytes).
 *
 * Throws {@link CryptoError}: `INVALID_KEY` for a malformed recipient key or a low-order X25519
 * key; `INVALID_PAYLOAD` for a payload that is not JSON data, is empty or is over
 * {@link MAX_PLAINTEXT_BYTES}; `INVALID_EVENT` naming the field for a bad kind, tag, time or
 * reply-to id, a reserved tag in `tags`, or an event over the size limit.
 * @example
 * const request = sealEvent({ kind: 'com.test.fs.read_text_file', payload: { path: 'README.md' }, expiration: now + 30 }, me, adapter.keys);
 */
export function sealEvent(
  input: SealInput,
  sender: Identity,
  recipient: PublicIdentity,
  options: SealOptions = {},
): XpEvent {
  const cipher = options.cipher ?? nobleCipher;
  const recipientEd = parseKey(recipient.ed25519, 'ed25519').bytes;
  const recipientX = parseKey(recipient.x25519, 'x25519').bytes;
  const tags: string[][] = [
    ['p', recipient.ed25519],
    ['x25519', sender.keys.x25519],
  ];
  if (input.replyTo !== undefined) {
    if (typeof input.replyTo !== 'string' || !EVENT_ID.test(input.replyTo)) {
      throw invalidEvent(
        `replyTo: expected an event id (64 lowercase hex digits), got ${JSON.stringify(input.replyTo)}`,
      );
    }
    tags.push(['e', input.replyTo]);
  }
  for (const [i, tag] of (input.tags ?? []).entries()) {
    const name = tag[0];
    if (name !== undefined && RESERVED_TAGS.has(name)) {
      throw invalidEvent(
        `tags[${i}]: the "${name}" tag is set by sealEvent (recipient, x25519, replyTo, expiration), not passed in tags`,
      );
    }
    tags.push([...tag]);
  }
  const key = conversationKey(
    sender.x25519.secretKey,
    recipientX,
    sender.ed25519.publicKey,
    recipientEd,
    cipher,
  );
  const content = encryptPayload(plaintextOf(input), key, {
    backend: cipher,
    ...(options.nonce === undefined ? {} : { nonce: options.nonce }),
  });
  const template = createEventTemplate({
    kind: input.kind,
    content,
    tags,
    ...(input.created_at === undefined ? {} : { created_at: input.created_at }),
    ...(input.expiration === undefined ? {} : { expiration: input.expiration }),
  });
  return signEvent(template, sender.ed25519.secretKey, options.signatures ?? nobleSignatures);
}

function onlyTag(event: XpEvent, name: string): string {
  const tags = getTags(event, name);
  if (tags.length !== 1)
    throw invalidEvent(`event.tags: expected exactly one "${name}" tag, got ${tags.length}`);
  const tag = tags[0]!;
  if (tag.length !== 2) {
    throw invalidEvent(
      `event.tags: expected the "${name}" tag as ["${name}", <key>], got ${tag.length} elements`,
    );
  }
  return tag[1]!;
}

/**
 * Verifies and decrypts an event sealed to `recipient`, checking in order: the event's shape,
 * size, id and signature (`verifyEvent`), then everything {@link decryptVerifiedEvent} checks.
 * It does not check freshness or expiration (see `checkFreshness`, `isExpired`) — the
 * verification order puts those before decryption.
 *
 * Throws {@link CryptoError}: `INVALID_EVENT` (shape, size, id, tags, another recipient),
 * `INVALID_SIGNATURE`, `INVALID_KEY` (a low-order sender X25519 key), `INVALID_PAYLOAD` or
 * `DECRYPT_FAILED` (see `decryptPayload`). The wire answer to all of these is to drop the event.
 * @example
 * const { plaintext, sender } = openEvent(JSON.parse(text), me, { signatures: nodeSignatures, cipher: nodeCipher });
 */
export function openEvent(event: unknown, recipient: Identity, options: EnvelopeBackends = {}): OpenedEvent {
  const verdict = verifyEvent(event, options.signatures ?? nobleSignatures);
  if (!verdict.ok) {
    throw new CryptoError(
      verdict.code === 'signature' ? 'INVALID_SIGNATURE' : 'INVALID_EVENT',
      verdict.message,
    );
  }
  return decryptVerifiedEvent(verdict.event, recipient, options);
}

/**
 * The decryption step alone, for an event that already passed `verifyEvent` (the `event` of an
 * `ok` verdict) and the checks that follow it in the verification order — so the signature is not
 * checked twice. Passing an unverified event here skips the signature check: use
 * {@link openEvent} for that. Checks exactly one `["p", key]` tag naming `recipient`, exactly one
 * well-formed `["x25519", key]` tag, then decrypts under the conversation key of `event.pubkey` +
 * that X25519 key and the recipient. Throws as {@link openEvent} does, minus the signature.
 */
export function decryptVerifiedEvent(
  event: XpEvent,
  recipient: Identity,
  options: Pick<EnvelopeBackends, 'cipher'> = {},
): OpenedEvent {
  const cipher = options.cipher ?? nobleCipher;
  const to = onlyTag(event, 'p');
  if (to !== recipient.keys.ed25519) {
    throw invalidEvent(
      `event.tags: the event is addressed to ${to}, not to this identity (${recipient.keys.ed25519})`,
    );
  }
  const senderX = onlyTag(event, 'x25519');
  if (!isKeyString(senderX, 'x25519')) {
    throw invalidEvent(
      `event.tags: expected the "x25519" tag's key as "x25519:" followed by 64 lowercase hex digits, got ${JSON.stringify(senderX.slice(0, 80))}`,
    );
  }
  const key = conversationKey(
    recipient.x25519.secretKey,
    parseKey(senderX, 'x25519').bytes,
    recipient.ed25519.publicKey,
    parseKey(event.pubkey, 'ed25519').bytes,
    cipher,
  );
  const plaintext = decryptPayload(event.content, key, { backend: cipher });
  return {
    event,
    sender: { ed25519: event.pubkey, x25519: senderX as X25519KeyString },
    plaintext,
    // decryptPayload accepted the content, so its first byte is the version (2 or 3).
    version: _base64Decode(event.content.slice(0, 4))[0] as PayloadVersion,
  };
}

/**
 * {@link openEvent}, then parses the plaintext as JSON. Throws {@link CryptoError}
 * `INVALID_PAYLOAD` when it is not JSON, besides everything `openEvent` throws.
 */
export function openEventJson(
  event: unknown,
  recipient: Identity,
  options: EnvelopeBackends = {},
): OpenedJsonEvent {
  const opened = openEvent(event, recipient, options);
  let payload: unknown;
  try {
    payload = JSON.parse(opened.plaintext);
  } catch (error) {
    throw new CryptoError(
      'INVALID_PAYLOAD',
      `payload: expected JSON, got text that does not parse (${(error as Error).message})`,
      {
        cause: error,
      },
    );
  }
  return { ...opened, payload };
}

/** The recipient an event names in its `p` tag, without verifying or decrypting it (for routing). */
export function eventRecipient(event: Pick<XpEvent, 'tags'>): Ed25519KeyString | undefined {
  const tags = getTags(event, 'p');
  const value = tags.length === 1 ? tags[0]![1] : undefined;
  return isKeyString(value, 'ed25519') ? (value as Ed25519KeyString) : undefined;
}
