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

/** What {@link _openSessionTag} found. */
export type _SessionTagVerdict =
  | { ok: true; context: McpSessionContext | undefined }
  | { ok: false; reason: string };

/**
 * The session context of a verified request addressed to `recipient` (undefined without an `mcp`
 * tag). A tag that is doubled, does not decrypt or is not a valid context is refused with the
 * reason: the request is then answered `SCHEMA_VIOLATION` and runs nowhere.
 */
export function _openSessionTag(
  event: XpEvent,
  recipient: Identity,
  cipher: CipherBackend,
): _SessionTagVerdict {
  const tags = getTags(event, MCP_SESSION_TAG);
  if (tags.length === 0) return { ok: true, context: undefined };
  if (tags.length > 1 || tags[0]!.length !== 2)
    return { ok: false, reason: 'expected one ["mcp", <encrypted session context>] tag' };
  const opened = _openTagValue(event, MCP_SESSION_TAG, tags[0]![1]!, recipient, cipher);
  if (!opened.ok) return { ok: false, reason: opened.reason };
  const text = opened.text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'the mcp tag is not JSON' };
  }
  const parsed = parseMcpSessionContext(value);
  return parsed.ok ? { ok: true, context: parsed.value } : { ok: false, reason: `mcp tag: ${parsed.reason}` };
}
