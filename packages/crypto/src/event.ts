/**
 * The XProtocol event (docs/protocol.md §2): its types, the shape every event must have, signing
 * templates and tag readers. Shape errors name the field, what was expected and what was received.
 * @module
 */

import { _loneSurrogateIndex } from './_bytes.js';
import { CryptoError } from './errors.js';
import { type Ed25519KeyString, isKeyString } from './key-string.js';
import { MAX_EVENT_BYTES } from './limits.js';
import { utf8Length } from './utf8-length.js';

/** A signed event as it travels on the wire. */
export interface XpEvent {
  /** Hex SHA-256 of the event's canonical preimage (see `computeEventId`): 64 lowercase hex. */
  readonly id: string;
  /** The author's identity key, `ed25519:<64 lowercase hex>`. */
  readonly pubkey: Ed25519KeyString;
  /** Unix time in seconds: a safe non-negative integer. */
  readonly created_at: number;
  /** Dot-separated segments of `[A-Za-z0-9_-]+`, e.g. `com.test.fs.read_text_file`. */
  readonly kind: string;
  /** Arrays of strings; the first string of each is the tag's name. */
  readonly tags: readonly (readonly string[])[];
  /** Any string (well-formed Unicode); sealed payloads are base64. */
  readonly content: string;
  /** Ed25519 signature of the 32 id bytes: 128 lowercase hex. */
  readonly sig: string;
}

/** What the author decides; `signEvent` adds `pubkey`, `id` and `sig`. */
export interface EventTemplate {
  readonly created_at: number;
  readonly kind: string;
  readonly tags: readonly (readonly string[])[];
  readonly content: string;
}

/** A template with its author: everything the id covers. */
export interface UnsignedEvent extends EventTemplate {
  readonly pubkey: Ed25519KeyString;
}

/** The seven fields of an event, in wire order. */
export const EVENT_FIELDS = ['id', 'pubkey', 'created_at', 'kind', 'tags', 'content', 'sig'] as const;

const KIND = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
const HEX64 = /^[0-9a-f]{64}$/;
const HEX128 = /^[0-9a-f]{128}$/;
const DECIMAL = /^(?:0|[1-9][0-9]*)$/;

/** True when `kind` is dot-separated segments of `[A-Za-z0-9_-]+`. */
export function isValidKind(kind: unknown): kind is string {
  return typeof kind === 'string' && KIND.test(kind);
}

function invalid(field: string, message: string): never {
  throw new CryptoError('INVALID_EVENT', `event.${field}: ${message}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') {
    return JSON.stringify(value.length > 72 ? `${value.slice(0, 69)}...` : value);
  }
  if (typeof value === 'number') return String(value);
  return typeof value;
}

function checkText(field: string, value: unknown): string {
  if (typeof value !== 'string') invalid(field, `expected a string, got ${describe(value)}`);
  const at = _loneSurrogateIndex(value);
  if (at >= 0) invalid(field, `expected well-formed Unicode, got a lone surrogate at index ${at}`);
  return value;
}

/**
 * @internal Validates the fields an id covers and returns them with the tags copied; throws
 * `INVALID_EVENT` naming the field.
 */
export function _checkTemplate(value: Record<string, unknown>): EventTemplate {
  const { created_at, kind, tags, content } = value;
  if (typeof created_at !== 'number' || !Number.isSafeInteger(created_at) || created_at < 0) {
    invalid('created_at', `expected a non-negative safe integer (unix seconds), got ${describe(created_at)}`);
  }
  if (typeof kind !== 'string' || !KIND.test(kind)) {
    invalid('kind', `expected dot-separated segments of [A-Za-z0-9_-]+, got ${describe(kind)}`);
  }
  if (!Array.isArray(tags)) invalid('tags', `expected an array of string arrays, got ${describe(tags)}`);
  let expirations = 0;
  const copies: string[][] = [];
  for (let i = 0; i < tags.length; i++) {
    const tag: unknown = tags[i];
    if (!Array.isArray(tag) || tag.length === 0) {
      invalid(`tags[${i}]`, `expected a non-empty array of strings, got ${describe(tag)}`);
    }
    const copy: string[] = [];
    for (let j = 0; j < tag.length; j++) copy.push(checkText(`tags[${i}][${j}]`, tag[j]));
    copies.push(copy);
    if (copy[0] === 'expiration') {
      expirations++;
      if (expirations > 1) invalid(`tags[${i}]`, 'expected at most one "expiration" tag, got a second');
      const when: unknown = copy[1];
      if (typeof when !== 'string' || !DECIMAL.test(when) || !Number.isSafeInteger(Number(when))) {
        invalid(`tags[${i}][1]`, `expected unix seconds as a decimal string, got ${describe(when)}`);
      }
    }
  }
  return { created_at, kind, tags: copies, content: checkText('content', content) };
}

function eventJson(event: XpEvent): string {
  return JSON.stringify({
    id: event.id,
    pubkey: event.pubkey,
    created_at: event.created_at,
    kind: event.kind,
    tags: event.tags,
    content: event.content,
    sig: event.sig,
  });
}

/**
 * Length in UTF-8 bytes of `JSON.stringify(event)` (the seven fields in wire order), the measure
 * {@link MAX_EVENT_BYTES} limits.
 */
export function eventByteLength(event: XpEvent): number {
  return utf8Length(eventJson(event));
}

/**
 * @internal The event's length in bytes when it exceeds {@link MAX_EVENT_BYTES}, else `null`.
 * Counts bytes only when the UTF-16 length cannot decide (a UTF-16 unit is at most 3 UTF-8 bytes).
 */
export function _oversize(event: XpEvent): number | null {
  const json = eventJson(event);
  if (json.length * 3 <= MAX_EVENT_BYTES) return null;
  const bytes = utf8Length(json);
  return bytes > MAX_EVENT_BYTES ? bytes : null;
}

/** @internal Shape only (no size limit): throws `INVALID_EVENT` naming the first wrong field. */
export function _checkShape(value: unknown): XpEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CryptoError('INVALID_EVENT', `event: expected a JSON object, got ${describe(value)}`);
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(EVENT_FIELDS as readonly string[]).includes(key)) {
      invalid(key, `unexpected field; an event has exactly ${EVENT_FIELDS.join(', ')}`);
    }
  }
  for (const key of EVENT_FIELDS) {
    if (!Object.hasOwn(record, key)) invalid(key, 'missing');
  }
  const { id, pubkey, sig } = record;
  if (typeof id !== 'string' || !HEX64.test(id)) {
    invalid('id', `expected 64 lowercase hex digits, got ${describe(id)}`);
  }
  if (!isKeyString(pubkey, 'ed25519')) {
    invalid('pubkey', `expected "ed25519:" followed by 64 lowercase hex digits, got ${describe(pubkey)}`);
  }
  const template = _checkTemplate(record);
  if (typeof sig !== 'string' || !HEX128.test(sig)) {
    invalid('sig', `expected 128 lowercase hex digits, got ${describe(sig)}`);
  }
  return { id, pubkey: pubkey as Ed25519KeyString, ...template, sig };
}

/**
 * Checks that `value` has the shape of an event and is within {@link MAX_EVENT_BYTES}, and returns
 * it typed (a fresh object with exactly the seven fields). It does not check the id or the
 * signature: that is `verifyEvent`.
 *
 * Throws {@link CryptoError} `INVALID_EVENT` naming the field: not an object; a missing or extra
 * field; `id` not 64 lowercase hex; `pubkey` not an `ed25519:` key string; `created_at` not a
 * non-negative safe integer; `kind` not dot-separated segments of `[A-Za-z0-9_-]+`; `tags` not an
 * array of non-empty string arrays, or a malformed or repeated `expiration` tag; `content` not a
 * string; a lone surrogate in any string; `sig` not 128 lowercase hex; the event too large.
 * @example
 * const event = parseEvent(JSON.parse(text)); // XpEvent, or throws naming the bad field
 */
export function parseEvent(value: unknown): XpEvent {
  const event = _checkShape(value);
  const size = _oversize(event);
  if (size !== null) {
    throw new CryptoError(
      'INVALID_EVENT',
      `event: expected at most ${MAX_EVENT_BYTES} bytes of JSON, got ${size}`,
    );
  }
  return event;
}

/** Input of {@link createEventTemplate}. */
export interface EventTemplateInput {
  readonly kind: string;
  readonly content: string;
  readonly tags?: readonly (readonly string[])[];
  /** Unix seconds; defaults to now. */
  readonly created_at?: number;
  /** Unix seconds after which the event must not be acted on; adds an `expiration` tag. */
  readonly expiration?: number;
}

/**
 * Builds a checked signing template: `created_at` defaults to the current second, and
 * `expiration` becomes an `["expiration", "<unix>"]` tag. Throws {@link CryptoError}
 * `INVALID_EVENT` naming the field when the result is not a valid template.
 * @example
 * createEventTemplate({ kind: 'xp.schema.catalog', content: '', expiration: now + 30 });
 */
export function createEventTemplate(input: EventTemplateInput): EventTemplate {
  const tags: string[][] = (input.tags ?? []).map((tag) => [...tag]);
  if (input.expiration !== undefined) tags.push(['expiration', String(input.expiration)]);
  return _checkTemplate({
    created_at: input.created_at ?? Math.floor(Date.now() / 1000),
    kind: input.kind,
    tags,
    content: input.content,
  });
}

/** All tags named `name`, whole (name first), in order. */
export function getTags(event: Pick<EventTemplate, 'tags'>, name: string): readonly (readonly string[])[] {
  return event.tags.filter((tag) => tag[0] === name);
}

/**
 * The value (second element) of the first tag named `name`, or `undefined` when there is none.
 * @example
 * getTag(event, 'e'); // the request id a response answers
 */
export function getTag(event: Pick<EventTemplate, 'tags'>, name: string): string | undefined {
  for (const tag of event.tags) if (tag[0] === name) return tag[1];
  return undefined;
}

/**
 * The event's `expiration` tag as unix seconds, or `undefined` when it has none. Throws
 * {@link CryptoError} `INVALID_EVENT` for a malformed value (`parseEvent` already refuses those).
 */
export function getExpiration(event: Pick<EventTemplate, 'tags'>): number | undefined {
  const value = getTag(event, 'expiration');
  if (value === undefined) return undefined;
  if (!DECIMAL.test(value) || !Number.isSafeInteger(Number(value))) {
    invalid('tags', `expected the expiration as unix seconds in decimal, got ${describe(value)}`);
  }
  return Number(value);
}
