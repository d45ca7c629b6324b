/**
 * The checks of the HTTP face that look into a request: its body read under the size limit
 * (`413` past it), and its messages against the face — the principal's scopes for the tool,
 * resource, prompt, completion or log level each names (`403 insufficient_scope`), the `Mcp-Param-*` headers of MCP 2026-07-28 (`400`, -32020) and the
 * sources' rate limits (`429`). Each gives the first refusal with the id it answers, or nothing.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import type { FaceAuth, FaceAuthRefusal, FacePrincipal } from '../auth/face-auth.js';
import type { McpFace } from '../face/mcp-face.js';
import type { FaceRateLimited } from '../face/rate-limit.js';
import { _paramHeaderRefusal, HEADER_MISMATCH } from '../gateway/param-headers.js';
import type { _JsonRpcId, _JsonRpcRefusal } from './json-rpc-body.js';

/** Reads a request's body; past `maxBytes`, why it is refused instead. */
export function _readBody(
  request: IncomingMessage,
  maxBytes: number,
): Promise<{ ok: true; bytes: Buffer } | { ok: false; message: string }> {
  // Events rather than an async iterator: the iterator's machinery cost more than the read.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the limit the rest is read and dropped (memory stays bounded): stopping the read would
    // leave the 413 unsent.
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    request.once('end', () => {
      if (size > maxBytes) resolve({ ok: false, message: `request body over ${maxBytes} bytes` });
      else resolve({ ok: true, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
    });
    request.once('error', reject);
    request.once('close', () => {
      if (!request.complete) reject(new Error('the client closed the connection before the body ended'));
    });
  });
}

/** True when the body (a message or a batch) holds an `initialize` request. */
export function _isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

/**
 * The first request of the body that the principal may not make (403 `insufficient_scope`): one
 * whose every way to run needs a capability its scopes and grants do not give. The refusal names
 * the first capability missing on the first way (the first source, in configuration order).
 */
export async function _scopeRefusal(
  face: McpFace,
  auth: FaceAuth,
  principal: FacePrincipal,
  messages: readonly Record<string, unknown>[],
): Promise<(FaceAuthRefusal & { id?: _JsonRpcId }) | undefined> {
  for (const message of messages) {
    if (typeof message.method !== 'string') continue;
    const params = message.params as Record<string, unknown> | undefined;
    const needs = await face.requestNeeds(message.method, params);
    if (needs.length === 0) continue;
    const what = _requestLabel(message.method, params);
    const refusals = needs.map((need) => _firstRefusal(auth, principal, need, what));
    if (refusals.some((refusal) => refusal === undefined)) continue;
    return { ...refusals[0]!, ...(message.id !== undefined && { id: message.id as _JsonRpcId }) };
  }
  return undefined;
}

/** The refusal of the first capability of `need` the principal lacks; nothing when it holds them all. */
function _firstRefusal(
  auth: FaceAuth,
  principal: FacePrincipal,
  need: readonly string[],
  what: string,
): FaceAuthRefusal | undefined {
  for (const capability of need) {
    const refusal = auth.authorize(principal, capability, what);
    if (refusal) return refusal;
  }
  return undefined;
}

/** How a refusal names the request: its method and the tool, prompt or resource it names (shortened). */
function _requestLabel(method: string, params: Record<string, unknown> | undefined): string {
  const ref = params?.ref as Record<string, unknown> | undefined;
  const named = params?.name ?? params?.uri ?? ref?.name ?? ref?.uri;
  if (typeof named !== 'string') return method;
  return `${method} of ${JSON.stringify(named.length > 80 ? `${named.slice(0, 77)}...` : named)}`;
}

/** The first `tools/call` whose `Mcp-Param-*` headers disagree with its arguments (MCP 2026-07-28). */
export async function _paramHeadersRefusal(
  face: McpFace,
  messages: readonly Record<string, unknown>[],
  request: IncomingMessage,
): Promise<_JsonRpcRefusal | undefined> {
  for (const message of messages) {
    if (message.method !== 'tools/call') continue;
    const params = (message.params ?? {}) as { name?: unknown; arguments?: unknown };
    await face.ready();
    // Only 2026-07-28 requests carry these headers: that revision's definition names them.
    const tool = face.tools(true).find((t) => t.name === params.name);
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    const refusal = tool && _paramHeaderRefusal(tool.inputSchema, args, request.headers);
    if (refusal !== undefined)
      return {
        status: 400,
        code: HEADER_MISMATCH,
        message: `Header mismatch: ${refusal}`,
        id: (message.id as _JsonRpcId | undefined) ?? null,
      };
  }
  return undefined;
}

/** Takes a rate-limit token for each `tools/call` of the body; the first refusal, with its id. */
export async function _takeRateLimits(
  face: McpFace,
  bucket: string,
  messages: readonly Record<string, unknown>[],
): Promise<(FaceRateLimited & { id: _JsonRpcId | null }) | undefined> {
  const calls = messages.filter((m) => m.method === 'tools/call' && m.id !== undefined);
  if (calls.length === 0) return undefined;
  await face.ready();
  for (const call of calls) {
    const name = (call.params as { name?: unknown } | undefined)?.name;
    if (typeof name !== 'string') continue;
    const limited = face.takeRateLimit(bucket, name);
    if (limited) return { ...limited, id: call.id as _JsonRpcId };
  }
  return undefined;
}
