/**
 * The `trace` tag of a request (docs/protocol.md §10.12): the caller's W3C `traceparent`, so the
 * endpoint's spans join the caller's trace. It is sealed like the `mcp` tag (the request's
 * conversation key, a nonce of its own): trace and span ids link calls to each other, and a
 * relay should not learn which calls belong together. A tag that cannot be read is ignored: the
 * endpoint then starts a trace of its own, and the call runs as it would have.
 * @module
 */
import {
  type CipherBackend,
  getTags,
  type Identity,
  type PublicIdentity,
  type XpEvent,
} from '@xprotocol/crypto';
import { _openTagValue, _sealTagValue } from './sealed-tag.js';

/** The tag's name. */
export const TRACE_TAG = 'trace';

/** The `["trace", <ciphertext>]` tag carrying `traceparent`, from `sender` to `recipient`. */
export function _sealTraceTag(
  traceparent: string,
  sender: Identity,
  recipient: PublicIdentity,
  cipher: CipherBackend,
): string[] {
  return [TRACE_TAG, _sealTagValue(JSON.stringify({ traceparent }), sender, recipient, cipher)];
}

/**
 * The `traceparent` in the `trace` tag of a verified request addressed to `recipient`; undefined
 * when there is no single tag of two elements, it reuses the content's nonce, does not decrypt,
 * or holds no `{"traceparent": <string>}`. Whether the string is a valid `traceparent` is the
 * reader's question.
 */
export function _openTraceTag(
  event: XpEvent,
  recipient: Identity,
  cipher: CipherBackend,
): string | undefined {
  const tags = getTags(event, TRACE_TAG);
  if (tags.length !== 1 || tags[0]!.length !== 2) return undefined;
  const sealed = tags[0]![1]!;
  // The same key and nonce as the content would give both the same keystream: not accepted.
  if (sealed.length >= 44 && sealed.slice(0, 44) === event.content.slice(0, 44)) return undefined;
  const opened = _openTagValue(event, TRACE_TAG, sealed, recipient, cipher);
  if (!opened.ok) return undefined;
  try {
    const value = JSON.parse(opened.text) as { traceparent?: unknown } | null;
    return typeof value?.traceparent === 'string' ? value.traceparent : undefined;
  } catch {
    return undefined;
  }
}
