/**
 * The `mcp` tag of a request made for an MCP client (docs/protocol.md §10.5): the client's session
 * context, encrypted under the same conversation key as the event's content, so a relay learns no
 * more from it than from the content. The signature covers it like every tag.
 * @module
 */
import {
  type CipherBackend,
  conversationKey,
  decryptPayload,
  encryptPayload,
  getTags,
  type Identity,
  isKeyString,
  type PublicIdentity,
  parseKey,
  type XpEvent,
} from '@xprotocol/crypto';
import { MCP_SESSION_TAG, type McpSessionContext, parseMcpSessionContext } from '@xprotocol/wire';

/** The `["mcp", <ciphertext>]` tag for `context`, from `sender` to `recipient`. */
export function _sealSessionTag(
  context: McpSessionContext,
  sender: Identity,
  recipient: PublicIdentity,
  cipher: CipherBackend,
): string[] {
  const key = conversationKey(
    sender.x25519.secretKey,
    parseKey(recipient.x25519, 'x25519').bytes,
    sender.ed25519.publicKey,
    parseKey(recipient.ed25519, 'ed25519').bytes,
    cipher,
  );
  return [MCP_SESSION_TAG, encryptPayload(JSON.stringify(context), key, { backend: cipher })];
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
  const senderX = getTags(event, 'x25519')[0]?.[1];
  if (!isKeyString(senderX, 'x25519'))
    return { ok: false, reason: "the mcp tag needs the sender's x25519 tag" };
  let text: string;
  try {
    const key = conversationKey(
      recipient.x25519.secretKey,
      parseKey(senderX as string, 'x25519').bytes,
      recipient.ed25519.publicKey,
      parseKey(event.pubkey, 'ed25519').bytes,
      cipher,
    );
    text = decryptPayload(tags[0]![1]!, key, { backend: cipher });
  } catch (error) {
    return { ok: false, reason: `the mcp tag does not decrypt: ${(error as Error).message}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'the mcp tag is not JSON' };
  }
  const parsed = parseMcpSessionContext(value);
  return parsed.ok ? { ok: true, context: parsed.value } : { ok: false, reason: `mcp tag: ${parsed.reason}` };
}
