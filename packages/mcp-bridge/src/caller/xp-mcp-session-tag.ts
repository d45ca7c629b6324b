/**
 * The `mcp` tag of a request made for an MCP client (docs/protocol.md §10.5): the client's session
 * context, encrypted under the same conversation key as the event's content, so a relay learns no
 * more from it than from the content. The signature covers it like every tag.
 * @module
 */
import {
  type CipherBackend,
  getTags,
  type Identity,
  type PublicIdentity,
  type XpEvent,
} from '@xprotocol/crypto';
import { MCP_SESSION_TAG, type McpSessionContext, parseMcpSessionContext } from '@xprotocol/wire';
import { _openTagValue, _sealTagValue } from './sealed-tag.js';

/** The `["mcp", <ciphertext>]` tag for `context`, from `sender` to `recipient`. */
export function _sealSessionTag(
  context: McpSessionContext,
  sender: Identity,
  recipient: PublicIdentity,
  cipher: CipherBackend,
): string[] {
  return [MCP_SESSION_TAG, _sealTagValue(JSON.stringify(context), sender, recipient, cipher)];
}

/**
 * The `mcp` tag of a request, opened (step 9 of docs/protocol.md §4, with the content): its
 * plaintext when there is one tag of two elements, `undefined` without a tag, or a form problem
 * left for step 10. `dropped` when it is there but cannot be opened: it does not decrypt, or it
 * reuses the content's nonce (the same key and nonce twice: not an independent encryption).
 */
export type _SessionTagOpened =
  | { dropped?: undefined; text: string | undefined; formProblem?: string }
  | { dropped: string };

/** Step 9 for the `mcp` tag of a verified request addressed to `recipient`. */
export function _decryptSessionTag(
  event: XpEvent,
  recipient: Identity,
  cipher: CipherBackend,
): _SessionTagOpened {
  const tags = getTags(event, MCP_SESSION_TAG);
  if (tags.length === 0) return { text: undefined };
  if (tags.length > 1 || tags[0]!.length !== 2)
    return { text: undefined, formProblem: 'expected one ["mcp", <encrypted session context>] tag' };
  const sealed = tags[0]![1]!;
  if (_sameNonce(sealed, event.content))
    return {
      dropped: "the mcp tag reuses the content's nonce: it must be encrypted with a nonce of its own",
    };
  const opened = _openTagValue(event, MCP_SESSION_TAG, sealed, recipient, cipher);
  return opened.ok ? { text: opened.text } : { dropped: opened.reason };
}

/** What {@link _readSessionContext} found. */
export type _SessionTagVerdict =
  | { ok: true; context: McpSessionContext | undefined }
  | { ok: false; reason: string };

/**
 * Step 10 for an opened `mcp` tag: the session context (undefined without a tag), or why it is
 * not one (doubled, not JSON, not a valid context): the request is then answered
 * `SCHEMA_VIOLATION` and runs nowhere.
 */
export function _readSessionContext(opened: _SessionTagOpened & { dropped?: undefined }): _SessionTagVerdict {
  if (opened.formProblem !== undefined) return { ok: false, reason: opened.formProblem };
  if (opened.text === undefined) return { ok: true, context: undefined };
  let value: unknown;
  try {
    value = JSON.parse(opened.text);
  } catch {
    return { ok: false, reason: 'the mcp tag is not JSON' };
  }
  const parsed = parseMcpSessionContext(value);
  return parsed.ok ? { ok: true, context: parsed.value } : { ok: false, reason: `mcp tag: ${parsed.reason}` };
}

/**
 * True when two payloads (§6) start with the same version byte and 32-byte nonce. Base64 of the
 * first 33 bytes is the first 44 characters, so those decide.
 */
function _sameNonce(a: string, b: string): boolean {
  return a.length >= 44 && a.slice(0, 44) === b.slice(0, 44);
}
