/**
 * The admin listener the adapter and the relay both serve their metrics on (docs/operating.md,
 * docs/security.md "The admin listener"): one route, `GET /metrics`, on its own port, with the
 * defences of the face's HTTP listener — Host must name the listener (no DNS rebinding), a request
 * with `Origin` is refused (a scraper is not a browser), only GET and HEAD, no body, a short URL
 * and small headers, few connections, short timeouts, and its own bearer token (compared in
 * constant time). It reads nothing a request sends beyond the line and headers. Which addresses
 * it may bind is the caller's rule ({@link isLoopbackHost}), checked where the options are read.
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { PROMETHEUS_CONTENT_TYPE } from './prometheus-text.js';

/** Longest request target accepted, in bytes. */
const MAX_URL_BYTES = 1024;
/** Largest request head (line and headers) Node reads, in bytes. */
const MAX_HEADER_BYTES = 8 * 1024;
/** Connections open at once. */
const MAX_CONNECTIONS = 16;
/** How long a request may take to arrive whole, in ms. */
const REQUEST_TIMEOUT_MS = 10_000;

/** Options of {@link serveAdmin}. */
export interface AdminListenerOptions {
  host: string;
  /** TCP port; 0 picks a free one (Host is then checked against the port bound). */
  port: number;
  /** The bearer token a scraper must send; absent: none asked (loopback only, by config). */
  token?: string | undefined;
  /** The metrics in the text format, made at each scrape. */
  metrics: () => Promise<string>;
  /** The realm of `WWW-Authenticate` on a `401`, naming the program (`xprotocol-relay admin`). */
  realm: string;
  /** Where the token is configured, for the `401` message (`--admin-token-env`, `admin.token_env`). */
  tokenSetting: string;
}

/** Whether `host` is a loopback name or address: what the admin listener binds unless told otherwise. */
export function isLoopbackHost(host: string): boolean {
  return (
    host === 'localhost' ||
    host === '::1' ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** A running admin listener. */
export interface AdminListener {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the admin listener on `host:port`. */
export async function serveAdmin(options: AdminListenerOptions): Promise<AdminListener> {
  const bound: AdminListenerOptions = { ...options };
  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      requestTimeout: REQUEST_TIMEOUT_MS,
      headersTimeout: REQUEST_TIMEOUT_MS,
    },
    (request, response) => {
      void _answer(bound, request, response).catch((error: Error) => {
        if (!response.headersSent) _plain(response, 500, `metrics failed: ${error.message}`);
        else response.destroy();
      });
    },
  );
  server.maxConnections = MAX_CONNECTIONS;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  // Host names the port bound (the one given, or the one picked for 0).
  bound.port = address.port;
  const shown = address.address.includes(':') ? `[${address.address}]` : address.address;
  return { url: `http://${shown}:${address.port}/metrics`, close: () => _close(server) };
}

async function _answer(
  options: AdminListenerOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const refusal = _refusal(options, request);
  if (refusal) {
    // Whatever body came is not read: the connection closes after the answer.
    response.setHeader('connection', 'close');
    if (refusal.status === 401) response.setHeader('www-authenticate', `Bearer realm="${options.realm}"`);
    if (refusal.status === 405) response.setHeader('allow', 'GET, HEAD');
    _plain(response, refusal.status, refusal.message);
    return;
  }
  const body = await options.metrics();
  response.writeHead(200, {
    'content-type': PROMETHEUS_CONTENT_TYPE,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}

/** The first rule `request` breaks, in the order a client can fix them; nothing when it passes. */
function _refusal(
  options: AdminListenerOptions,
  request: IncomingMessage,
): { status: number; message: string } | undefined {
  const url = request.url ?? '';
  if (Buffer.byteLength(url) > MAX_URL_BYTES)
    return { status: 414, message: `request target over ${MAX_URL_BYTES} bytes` };
  const hostProblem = _hostProblem(request.headers.host, options);
  if (hostProblem) return { status: 403, message: `Forbidden: ${hostProblem}` };
  if (request.headers.origin !== undefined)
    return { status: 403, message: 'Forbidden: a request with Origin (a browser) is not served here' };
  if (!_authorized(request.headers.authorization, options.token))
    return {
      status: 401,
      message: `Unauthorized: send Authorization: Bearer <the token of ${options.tokenSetting}>`,
    };
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return { status: 405, message: `method ${request.method} not allowed: only GET /metrics` };
  if (
    request.headers['transfer-encoding'] !== undefined ||
    Number(request.headers['content-length'] ?? 0) > 0
  )
    return { status: 413, message: 'a request body is not accepted here' };
  const path = url.split('?')[0];
  if (path !== '/metrics') return { status: 404, message: 'not found: the only path is /metrics' };
  return undefined;
}

/** Why the Host header does not name this listener; nothing when it does. */
function _hostProblem(header: string | undefined, options: AdminListenerOptions): string | undefined {
  if (header === undefined || header === '') return 'missing Host header';
  const allowed = _allowedHostnames(options.host);
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(header);
  const name = match?.[1]?.toLowerCase();
  if (
    name === undefined ||
    !allowed.has(name) ||
    (match?.[2] !== undefined && Number(match[2]) !== options.port)
  )
    return `Host ${JSON.stringify(header.slice(0, 100))} does not name this listener (${[...allowed].join(', ')} on port ${options.port})`;
  return undefined;
}

/** Names Host may give: loopback, the bound address, and for a wildcard bind every local interface address. */
function _allowedHostnames(host: string): Set<string> {
  const bracket = (address: string) => (address.includes(':') ? `[${address}]` : address);
  const names = new Set(['127.0.0.1', 'localhost', '[::1]', bracket(host)]);
  if (host === '0.0.0.0' || host === '::') {
    for (const entries of Object.values(networkInterfaces()))
      for (const entry of entries ?? []) names.add(bracket(entry.address));
  }
  return names;
}

/** Whether `header` carries the token; true when none is asked. Constant time in the token. */
function _authorized(header: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const sent = header?.startsWith('Bearer ') === true ? header.slice('Bearer '.length) : '';
  // Digests have one length whatever was sent: timingSafeEqual needs equal lengths.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(sent), digest(token)) && sent.length > 0;
}

function _plain(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  response.end(`${message}\n`);
}

function _close(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
