/**
 * HTTP discovery (docs/design.md §10): an endpoint serves
 * `GET /.well-known/xprotocol-endpoint` (who it is: its keys and relays) and `GET /xp/schemas`
 * (its catalog, paged); `xp://host[:port]` resolves through the well-known document over HTTPS,
 * or plain HTTP for loopback hosts only.
 *
 * The document is read with a size cap enforced while streaming (the read stops at the cap; the
 * package's one capped reader, outbound/capped-body.ts), and
 * a host name in the endpoint is resolved through the address policy: the connection goes to the
 * checked address (docs/security.md, "Outbound addresses"). An IP literal or `localhost` in the
 * configured endpoint is dialled as named: the operator chose it.
 * @module
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type AddressInfo, isIP } from 'node:net';
import { AddressPolicy } from '@xprotocol/relay-client';
import {
  MAX_WELL_KNOWN_BYTES,
  parseWellKnownDocument,
  WELL_KNOWN_PATH,
  type WellKnownDocument,
} from '@xprotocol/wire';
import { BridgeError } from '../errors.js';
import { type BridgeLogger, silentLogger } from '../logger.js';
import { readCappedBody } from '../outbound/capped-body.js';
import { checkDnsKey, type DnsCheckOptions } from './dns-check.js';

/** The well-known document and its path (docs/protocol.md §10.10): the wire package's. */
export { WELL_KNOWN_PATH, type WellKnownDocument } from '@xprotocol/wire';

/** The path of the HTTP catalog. */
export const SCHEMAS_PATH = '/xp/schemas';

/** Largest well-known document read, in bytes; the read stops there. */
export const MAX_DOCUMENT_BYTES = MAX_WELL_KNOWN_BYTES;
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/**
 * The URL of the well-known document for an `xp://host[:port]` endpoint: HTTPS, or HTTP for a
 * loopback host. Throws `INVALID_OPTIONS` naming what is wrong.
 */
export function wellKnownUrl(endpoint: string): string {
  const match = /^xp:\/\/([^/?#\s]+)\/?$/.exec(endpoint);
  if (!match)
    throw new BridgeError(
      'INVALID_OPTIONS',
      `expected an endpoint of the form xp://host[:port], got ${JSON.stringify(endpoint)}`,
    );
  let host: URL;
  try {
    host = new URL(`https://${match[1]}`);
  } catch {
    throw new BridgeError('INVALID_OPTIONS', `the host of ${JSON.stringify(endpoint)} is not valid`);
  }
  if (host.username || host.password)
    throw new BridgeError('INVALID_OPTIONS', `${endpoint}: credentials are not allowed in an endpoint`);
  const scheme = LOOPBACK.test(host.hostname) ? 'http' : 'https';
  return `${scheme}://${host.host}${WELL_KNOWN_PATH}`;
}

/** Options of {@link resolveXpEndpoint}. */
export interface ResolveXpEndpointOptions {
  /** Default 10000. */
  timeoutMs?: number;
  /** Checks the addresses a host name resolves to. Default: a policy with no allow-list. */
  policy?: AddressPolicy;
  /** Default {@link MAX_DOCUMENT_BYTES}. */
  maxBytes?: number;
  /**
   * The DNS step (dns-check.ts): the document's key must be one `_xprotocol.<host>` publishes,
   * under `policy`. Absent: DNS is not asked.
   */
  dns?: DnsCheckOptions;
}

/**
 * Fetches and checks an endpoint's well-known document. Rejects with `CALL_FAILED` when it cannot
 * be fetched within `timeoutMs`, its host resolves to a refused address, it is larger than
 * `maxBytes` (the read stops there), it lacks valid keys and relays, or (with `dns`) its key is
 * not one the host's DNS TXT records publish.
 */
export async function resolveXpEndpoint(
  endpoint: string,
  options: ResolveXpEndpointOptions = {},
): Promise<WellKnownDocument> {
  const url = wellKnownUrl(endpoint);
  const maxBytes = options.maxBytes ?? MAX_DOCUMENT_BYTES;
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  // A literal (or localhost) in the configured endpoint is dialled as named; a name is checked.
  const named = isIP(host) !== 0 || LOOPBACK.test(new URL(url).hostname);
  const policy = options.policy ?? new AddressPolicy();
  let text: string;
  try {
    text = await _readDocument(url, {
      timeoutMs: options.timeoutMs ?? 10_000,
      maxBytes,
      ...(!named && { lookup: policy.lookup }),
    });
  } catch (error) {
    throw new BridgeError('CALL_FAILED', `cannot fetch ${url}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BridgeError('CALL_FAILED', `${url}: not JSON`);
  }
  const parsed = parseWellKnownDocument(value);
  if (!parsed.ok) throw new BridgeError('CALL_FAILED', `${url}: ${parsed.problems.join('; ')}`);
  const doc = parsed.document;
  // The document came over TLS from the host; the TXT record is a second channel the same
  // operator controls (docs/security.md, "Keys published in DNS").
  if (options.dns) await checkDnsKey(host, doc.public_key, options.dns);
  return doc;
}

/**
 * GETs `url` (no redirects), reading at most `maxBytes` of body (outbound/capped-body.ts): a
 * declared length over it is refused unread, and past it the read stops and the socket is closed.
 */
function _readDocument(
  url: string,
  options: { timeoutMs: number; maxBytes: number; lookup?: AddressPolicy['lookup'] },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
      target,
      {
        method: 'GET',
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(options.timeoutMs),
        ...(options.lookup && { lookup: options.lookup as never }),
      },
      (response) => {
        if (response.statusCode !== 200) {
          request.destroy();
          reject(
            new Error(
              `HTTP ${response.statusCode}${response.statusCode && response.statusCode < 400 && response.statusCode >= 300 ? ' (redirects are not followed)' : ''}`,
            ),
          );
          return;
        }
        readCappedBody(response, {
          maxBytes: options.maxBytes,
          what: 'the document',
          declaredLength: response.headers['content-length'],
        }).then(
          (bytes) => resolve(bytes.toString('utf8')),
          (error: unknown) => {
            request.destroy();
            reject(error);
          },
        );
      },
    );
    request.on('error', (error) => reject(error));
    request.end();
  });
}

/** Options of {@link serveDiscovery}. */
export interface DiscoveryServerOptions {
  host: string;
  port: number;
  /** The current well-known document, without `schema_url` (filled in from the bound address). */
  document: () => Omit<WellKnownDocument, 'schema_url'>;
  /** A catalog page for `{cursor?, limit?}`; throws with a message for a bad request. */
  page: (request: { cursor?: string; limit?: number }) => unknown;
  logger?: BridgeLogger;
}

/** A running discovery server. */
export interface DiscoveryServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves the well-known document and the HTTP catalog (GET and HEAD only, JSON). */
export async function serveDiscovery(options: DiscoveryServerOptions): Promise<DiscoveryServer> {
  const logger = options.logger ?? silentLogger;
  let base = '';
  const server: Server = createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      });
      response.end(request.method === 'HEAD' ? undefined : `${JSON.stringify(body)}\n`);
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(405, { error: `method ${request.method} not allowed; use GET` });
      return;
    }
    const url = new URL(request.url ?? '/', 'http://placeholder');
    try {
      if (url.pathname === WELL_KNOWN_PATH) {
        send(200, { ...options.document(), schema_url: `${base}${SCHEMAS_PATH}` });
      } else if (url.pathname === SCHEMAS_PATH) {
        const cursor = url.searchParams.get('cursor') ?? undefined;
        const limitText = url.searchParams.get('limit');
        const limit = limitText === null ? undefined : Number(limitText);
        send(
          200,
          options.page({ ...(cursor !== undefined && { cursor }), ...(limit !== undefined && { limit }) }),
        );
      } else {
        send(404, { error: `not found; try ${WELL_KNOWN_PATH} or ${SCHEMAS_PATH}` });
      }
    } catch (error) {
      send(400, { error: (error as Error).message });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        new BridgeError(
          'INVALID_OPTIONS',
          `cannot listen on ${options.host}:${options.port}: ${error.message}`,
        ),
      ),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  base = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  logger.info({ url: `${base}${WELL_KNOWN_PATH}` }, 'discovery served');
  return {
    url: base,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
