/**
 * The checks of the HTTP face that look into a request: its body read under the size limit
 * (`413` past it), and its messages against the face's tools — the principal's scopes (`403
 * insufficient_scope`), the `Mcp-Param-*` headers of MCP 2026-07-28 (`400`, -32020) and the
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

/** The first `tools/call` of the body that the principal may not make (403 `insufficient_scope`). */
export function _toolRefusal(
  face: McpFace,
  auth: FaceAuth,
  principal: FacePrincipal,
  messages: readonly Record<string, unknown>[],
): (FaceAuthRefusal & { id?: _JsonRpcId }) | undefined {
  for (const message of messages) {
    if (message.method !== 'tools/call') continue;
    const name = (message.params as { name?: unknown } | undefined)?.name;
    const capability = typeof name === 'string' ? face.requiredCapability(name) : undefined;
    const refusal = capability === undefined ? undefined : auth.authorize(principal, capability);
    if (refusal) return { ...refusal, ...(message.id !== undefined && { id: message.id as _JsonRpcId }) };
  }
  return undefined;
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
    const tool = face.tools().find((t) => t.name === params.name);
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
