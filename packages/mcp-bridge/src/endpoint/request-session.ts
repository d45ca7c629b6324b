/**
 * The caller's MCP session a request runs in (docs/protocol.md §10.5): named by the request's
 * sealed `mcp` tag (opened with the content at step 9 of §4, read at step 10), made on first use — after the request passed its checks, so that a refused
 * request opens nothing. Without the tag a request runs in the endpoint's shared session.
 * @module
 */
import { getTag, type X25519KeyString, type XpEvent } from '@xprotocol/crypto';
import { type XpErrorPayload, xpError } from '@xprotocol/wire';
import {
  _decryptSessionTag,
  _readSessionContext,
  type _SessionTagOpened,
} from '../caller/xp-mcp-session-tag.js';
import type { InboundOutcome } from './endpoint-options.js';
import type { _Inbound } from './inbound.js';
import { _XpCallerSession } from './xp-mcp-caller-session.js';

/** The caller's MCP session a request runs in (none: the endpoint's shared session). */
export interface _SessionOf {
  session: _XpCallerSession | undefined;
  /** The caller's client asked for progress on this request. */
  progress: boolean;
}

/**
 * The caller's MCP session named by the request's `mcp` tag, made on first use; none without the
 * tag. A tag that cannot be read, or a session refused because the caller or the endpoint has too
 * many, answers the request before anything runs.
 */
export function _session(
  inbound: _Inbound,
  event: XpEvent,
  opened: _OpenedTag,
): _SessionOf | { outcome: Promise<InboundOutcome> } {
  const session = _sessionTag(inbound, event, opened);
  if ('outcome' in session) return session;
  const made = session.open?.();
  if (made === undefined || made instanceof _XpCallerSession)
    return { session: made, progress: session.progress };
  return { outcome: inbound.answers.error(event, made) };
}

/** The `mcp` tag once step 9 opened it (one that could not be opened was dropped there). */
export type _OpenedTag = _SessionTagOpened & { dropped?: undefined };

/**
 * Step 9 for the request's `mcp` tag, beside the content: opened, or the drop (no answer) when it
 * does not decrypt or reuses the content's nonce.
 */
export function _openTag(inbound: _Inbound, event: XpEvent): _OpenedTag | { outcome: InboundOutcome } {
  const opened = _decryptSessionTag(event, inbound.o.identity, inbound.o.cipher);
  if (opened.dropped === undefined) return opened;
  return { outcome: inbound.answers.drop(`cannot decrypt: ${opened.dropped}`, event) };
}

/**
 * The request's `mcp` tag, read (step 10): how to open the caller's session (after the request passed
 * its checks: a refused request opens nothing), and whether its client wants progress.
 */
export function _sessionTag(
  inbound: _Inbound,
  event: XpEvent,
  opened: _OpenedTag,
):
  | { open: (() => _XpCallerSession | XpErrorPayload) | undefined; progress: boolean }
  | { outcome: Promise<InboundOutcome> } {
  const verdict = _readSessionContext(opened);
  if (!verdict.ok)
    return { outcome: inbound.answers.error(event, xpError('SCHEMA_VIOLATION', verdict.reason)) };
  const context = verdict.context;
  if (!context) return { open: undefined, progress: false };
  const caller = { ed25519: event.pubkey, x25519: getTag(event, 'x25519') as X25519KeyString };
  return { open: () => inbound.sessions.session(caller, context), progress: context.progress === true };
}
