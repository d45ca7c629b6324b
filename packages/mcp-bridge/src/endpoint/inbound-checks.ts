/**
 * The inbound checks of docs/protocol.md §4 from step 5 on, in their documented order:
 * freshness (future, stale or older than the dedupe memory's floor: dropped; expired: `EXPIRED`)
 * → the discovery and `xp.mcp.request` kinds, which have checks of their own → kind lookup
 * (`NOT_FOUND`) → authority: the signer's grant or its delegation chain
 * (`AUTHORIZATION_INSUFFICIENT`, `REVOKED`) → rate limit (`RATE_LIMITED`) → decrypt (dropped) →
 * depth and size limits, then schema (`SCHEMA_VIOLATION`) → the caller's MCP session → the
 * upstream call (a tool's `tools/call`, a prompt contract's `prompts/get`, a resource template's
 * `resources/read`: docs/protocol.md §10.11). What fails early never reaches the MCP server. Steps 1–4 run before
 * (xp-endpoint.ts).
 * @module
 */
import { checkFreshness, getExpiration, isExpired, type XpEvent } from '@xprotocol/crypto';
import { checkJsonLimits, type JsonObject } from '@xprotocol/translate';
import {
  CATALOG_KIND,
  DESCRIBE_KIND,
  MCP_REQUEST_KIND,
  REFRESH_KIND,
  type XpErrorPayload,
  xpError,
} from '@xprotocol/wire';
import { _readSessionContext } from '../caller/xp-mcp-session-tag.js';
import type { AuthorityVerdict } from '../policy/delegated-access.js';
import { _authorityError } from './caller-authority.js';
import type { EndpointTool } from './endpoint-catalog.js';
import type { InboundOutcome } from './endpoint-options.js';
import { type _Inbound, _openJson } from './inbound.js';
import { _answerMcpRequest } from './mcp-requests.js';
import { type _OpenedTag, _openTag, _session } from './request-session.js';
import { _answerCatalog, _answerDescribe, _refuseRefresh } from './schema-requests.js';
import { _runToolCall } from './tool-call.js';

/** Runs a request that is neither a duplicate nor a caller's session message through the rest of the checks. */
export async function _processRequest(inbound: _Inbound, event: XpEvent): Promise<InboundOutcome> {
  const stale = _freshnessRefusal(inbound, event);
  if (stale) return stale;
  if (event.kind === CATALOG_KIND) return _answerCatalog(inbound, event);
  if (event.kind === DESCRIBE_KIND) return _answerDescribe(inbound, event);
  if (event.kind === REFRESH_KIND) return _refuseRefresh(inbound, event);
  if (event.kind === MCP_REQUEST_KIND) return _answerMcpRequest(inbound, event);
  const checked = await _checkToolCall(inbound, event);
  if ('outcome' in checked) return checked.outcome;
  const session = _session(inbound, event, checked.tag);
  if ('outcome' in session) return session.outcome;
  const { tool, payload, grant } = checked;
  return _runToolCall(
    inbound,
    event,
    { source: tool.source, name: tool.upstreamName, args: payload, grant, entry: tool.entry },
    session,
  );
}

/**
 * Step 5: an event from the future, older than the window or older than the dedupe memory's floor
 * is dropped; an expired one answered `EXPIRED`.
 */
function _freshnessRefusal(
  inbound: _Inbound,
  event: XpEvent,
): InboundOutcome | Promise<InboundOutcome> | undefined {
  const nowSeconds = Math.floor(inbound.now() / 1000);
  const freshness = checkFreshness(event, nowSeconds, {
    maxFutureSeconds: inbound.o.maxFutureSeconds,
    maxAgeSeconds: inbound.o.retentionSeconds,
  });
  if (freshness !== 'ok') {
    return inbound.answers.drop(`${freshness}: created_at ${event.created_at}, now ${nowSeconds}`, event);
  }
  const floor = inbound.o.state.replayFloor;
  if (event.created_at < floor) {
    return inbound.answers.drop(
      `stale: created_at ${event.created_at} is before ${floor}, the oldest the dedupe memory still answers for`,
      event,
    );
  }
  if (isExpired(event, nowSeconds)) {
    return inbound.answers.error(event, xpError('EXPIRED', `the request expired at ${getExpiration(event)}`));
  }
  return undefined;
}

/** Steps 6–10 of a tool call: the tool, and its payload once it passed; else the answer (or drop). */
async function _checkToolCall(
  inbound: _Inbound,
  event: XpEvent,
): Promise<
  | {
      tool: EndpointTool;
      payload: Record<string, unknown>;
      grant: AuthorityVerdict & { ok: true };
      tag: _OpenedTag;
    }
  | { outcome: InboundOutcome }
> {
  const { answers } = inbound;
  const { catalog } = inbound.o;
  const legacy = catalog.tool(event.kind);
  // A 2026-07-28 caller's tool may be another (docs/protocol.md §10.8): which one, once the mcp tag is open.
  const modern = catalog.modernTool?.(event.kind);
  const found = legacy ?? modern;
  const unknown = () => answers.error(event, xpError('NOT_FOUND', `no schema ${event.kind} here`));
  if (!found) return { outcome: await unknown() };
  const required = found.contract.auth.required_capability;
  const grant = (await inbound.chains.authorityOf(event))(required);
  if (!grant.ok) return { outcome: await answers.error(event, _authorityError(required, grant)) };
  const limited = inbound.rateLimits.take(found.source, event.pubkey, inbound.now());
  if (limited) return { outcome: await answers.error(event, limited) };
  // Step 9 opens the content and the mcp tag: either failing is dropped, whatever else is wrong.
  const tag = _openTag(inbound, event);
  if ('outcome' in tag) return tag;
  const tool = _toolOfRevision(tag, legacy, modern);
  if (!tool) return { outcome: await unknown() };
  const opened = await _openJson(inbound, event);
  if ('outcome' in opened) return opened;
  inbound.observed?.note(event, { arguments: opened.value, delegatedBy: grant.chain?.onBehalfOf });
  const invalid = _payloadRefusal(inbound, tool, opened.value);
  if (invalid) return { outcome: await answers.error(event, invalid) };
  return { tool, payload: opened.value as Record<string, unknown>, grant, tag };
}

/**
 * The tool a call runs by its caller's MCP revision: a 2026-07-28 client's (its `mcp` tag has
 * `input`, docs/protocol.md §10.5) the one offered to that revision when there is one, any other
 * caller's the catalog's. A tag that cannot be read is the catalog's: step 10 refuses it.
 */
function _toolOfRevision(
  tag: _OpenedTag,
  legacy: EndpointTool | undefined,
  modern: EndpointTool | undefined,
): EndpointTool | undefined {
  const read = _readSessionContext(tag);
  const isModern = read.ok && read.context?.input !== undefined;
  return isModern ? (modern ?? legacy) : (legacy ?? (read.ok ? undefined : modern));
}

/** Step 10: the payload within the depth and size limits, then against the tool's schema. */
function _payloadRefusal(
  inbound: _Inbound,
  tool: EndpointTool,
  payload: unknown,
): XpErrorPayload | undefined {
  // Before the validator or anything else walks the payload recursively.
  const limits = checkJsonLimits(payload, inbound.o.argumentLimits, 'the payload');
  if (!limits.ok) {
    return xpError('SCHEMA_VIOLATION', limits.message, {
      details: { limit: limits.limit, max: limits.max, found: limits.found },
    });
  }
  const check = tool.validate(payload);
  if (check.ok) return undefined;
  return xpError('SCHEMA_VIOLATION', check.message, {
    details: { errors: check.errors } as unknown as JsonObject,
  });
}
