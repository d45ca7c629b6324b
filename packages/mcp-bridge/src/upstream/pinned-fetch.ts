/**
 * A `fetch` for the SDK's HTTP transports whose connections go only to addresses the address
 * policy checked (docs/security.md, "Outbound addresses"): the host name of an upstream URL is
 * resolved by the policy's lookup for every connection, every address is checked, and the socket
 * connects to a checked one, so a DNS answer that turns to a private or metadata address
 * (rebinding) is refused instead of followed. Built on node:http(s); the response body streams as
 * it arrives (Server-Sent Events work), redirects are not followed.
 * @module
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/client';
import type { AddressPolicy, PolicyLookup } from '@xprotocol/relay-client';

/**
 * The fetch for an HTTP upstream: pinned through `spec.addressPolicy` when the URL names a host;
 * `undefined` (the SDK's default fetch) for an IP literal or `localhost`, or without a policy.
 */
export function _httpFetch(spec: { url: string; addressPolicy?: AddressPolicy }): FetchLike | undefined {
  const policy = spec.addressPolicy;
  if (!policy) return undefined;
  const host = new URL(spec.url).hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) !== 0 || host === 'localhost' ? undefined : _pinnedFetch(policy.lookup);
}

/** A fetch that resolves host names through `lookup` (an `AddressPolicy`'s). */
export function _pinnedFetch(lookup: PolicyLookup): FetchLike {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof URL ? input.href : String(input));
      const headers = new Headers(init?.headers);
      const body = init?.body;
      const method = init?.method ?? 'GET';
      const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
        url,
        {
          method,
          headers: Object.fromEntries(headers),
          lookup: lookup as never,
          ...(init?.signal && { signal: init.signal }),
        },
        (response) => resolve(_toResponse(response, method)),
      );
      request.on('error', reject);
      if (typeof body === 'string' || body instanceof Uint8Array) request.end(body);
      else if (body === undefined || body === null) request.end();
      else {
        request.destroy();
        reject(new TypeError(`unsupported request body type ${Object.prototype.toString.call(body)}`));
      }
    });
}

function _toResponse(response: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const status = response.statusCode ?? 502;
  const empty = method === 'HEAD' || status === 204 || status === 205 || status === 304;
  if (empty) response.resume();
  return new Response(empty ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), {
    status,
    statusText: response.statusMessage ?? '',
    headers,
  });
}
