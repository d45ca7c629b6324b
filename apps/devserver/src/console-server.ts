/**
 * The devserver's web console (docs/devserver.md, "The web console"): a small HTTP server on
 * loopback that serves the pages shipped in the package's `console/` folder (plain HTML, CSS and
 * JavaScript modules; nothing from a CDN) and their JSON API — the catalog and its search, the
 * live events as server-sent events, Try a call, the running configuration, and each endpoint's
 * delegation chain (`console-identity.ts`). Every request is
 * checked by `checkConsoleRequest` (Host, Origin, the per-run token or this port's cookie, and
 * the CSRF token on anything but GET and HEAD).
 * @module
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import {
  type AdapterConfig,
  type ConfigIssue,
  type ConfigWarning,
  redactConfig,
} from '@xprotocol/mcp-adapter';
import {
  type ConsoleKeys,
  checkConsoleRequest,
  consoleCookie,
  consoleKeys,
  createConsoleToken,
} from './console-access.js';
import type { ConsoleCaller, ConsoleSigner } from './console-caller.js';
import type { ConsoleCatalog } from './console-catalog.js';
import type { ConsoleEvents } from './console-events.js';
import { endpointIdentities, type IdentitySource } from './console-identity.js';
import { RELAY_HOST } from './paths.js';

/** The outcome of the last configuration reload, for the Config page. */
export interface ReloadReport {
  /** When it happened, in ms since the epoch. */
  at: number;
  ok: boolean;
  /** What happened, in one sentence. */
  message: string;
  /** The validation errors (file, line, column, key, message) when the new file was refused. */
  issues: readonly ConfigIssue[];
}

/** What the Config page shows. */
export interface ConsoleConfigSource {
  /** Where the configuration comes from: the file, `--mcp-command` or `the demo server`. */
  origin: string;
  /**
   * For a configuration the devserver wrote itself (`--mcp-command`, the demo server): that it
   * has no file, and what it serves. The view then shows no `file` (it would name a path that
   * does not exist).
   */
  generated?: string;
  /** The running configuration (redacted before it is served). */
  config: () => AdapterConfig;
  warnings: () => readonly ConfigWarning[];
  lastReload: () => ReloadReport | undefined;
}

/** Options of {@link startConsole}. */
export interface ConsoleOptions {
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number;
  catalog: ConsoleCatalog;
  events: ConsoleEvents;
  caller: ConsoleCaller;
  configSource: ConsoleConfigSource;
  /** The Identity page: whose announces to read, from which relay, against which trust roots. */
  identity: IdentitySource;
  /** Shown in the header: the adapter key and the relay URL. */
  status: () => { adapterKey: string; relayUrl: string; version: string };
  /** The token; default: a fresh random one. */
  token?: string;
}

/** A running console. */
export interface RunningConsole {
  /** `http://127.0.0.1:<port>/?token=<token>`: what the banner prints. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

/** The folder of the console's pages, shipped beside `dist/` in the package. */
export const CONSOLE_ASSETS = fileURLToPath(new URL('../console/', import.meta.url));

const _TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

const _HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
};

/** Largest Try-a-call body accepted, in bytes. */
const _MAX_BODY = 1_048_576;

/** What a request is answered from: the options, the token, the bound port's keys, the open streams. */
interface _ConsoleSite {
  readonly options: ConsoleOptions;
  readonly token: string;
  /** Made for the bound port once the server listens; a request before that is refused. */
  keys: ConsoleKeys | undefined;
  /** The live event streams, ended on close. */
  readonly streams: Set<ServerResponse>;
}

/** Starts the console on loopback. Rejects when the port cannot be bound. */
export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  const site: _ConsoleSite = {
    options,
    token: options.token ?? createConsoleToken(),
    keys: undefined,
    streams: new Set(),
  };
  const server: Server = createServer((request, response) => {
    _handle(site, request, response).catch((error: unknown) => {
      if (!response.headersSent) _json(response, 500, { error: (error as Error).message });
      else response.destroy();
    });
  });
  await _listen(server, options.port);
  const { port } = server.address() as { port: number };
  site.keys = consoleKeys(site.token, port);
  const { token } = site;
  return {
    url: `http://${RELAY_HOST}:${port}/?token=${token}`,
    port,
    token,
    async close() {
      for (const stream of site.streams) stream.end();
      await options.caller.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Binds `server` to `port` on loopback; rejects when it cannot. */
function _listen(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, RELAY_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** One request: refused unless it passes the access check, else answered by its route. */
async function _handle(
  site: _ConsoleSite,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const { keys } = site;
  if (keys === undefined) return _json(response, 503, { error: 'the console is starting' });
  const access = checkConsoleRequest(request, keys);
  const url = new URL(request.url ?? '/', 'http://console');
  if (!access.ok) {
    const page = request.method === 'GET' && !url.pathname.startsWith('/api/');
    if (page) _send(response, access.status, 'text/plain; charset=utf-8', `${access.reason}\n`);
    else _json(response, access.status, { error: access.reason });
    return;
  }
  if (access.via === 'query' && request.method === 'GET' && !url.pathname.startsWith('/api/')) {
    // First visit: a cookie for this port instead of the token in the URL, and the CSRF token in
    // the fragment, which the browser keeps to itself (no server of another port ever sees it).
    response.writeHead(303, {
      ..._HEADERS,
      'set-cookie': consoleCookie(keys),
      location: `${url.pathname}#csrf=${keys.csrf}`,
    });
    response.end();
    return;
  }
  return _route(site, request, response, url);
}

/** Answers an admitted request: a page, an asset, or the JSON API. */
async function _route(
  site: _ConsoleSite,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  const { options } = site;
  const route = `${request.method} ${url.pathname}`;
  if (route === 'GET /' || route === 'GET /index.html') return _asset(response, 'index.html');
  if (request.method === 'GET' && url.pathname.startsWith('/assets/'))
    return _asset(response, url.pathname.slice('/assets/'.length));
  switch (route) {
    case 'GET /api/status':
      return _json(response, 200, { ...options.status(), consoleKey: options.caller.dev.keys.ed25519 });
    case 'GET /api/catalog':
      return _json(response, 200, options.catalog.list());
    case 'GET /api/tool': {
      const kind = url.searchParams.get('kind') ?? '';
      const detail = options.catalog.detail(kind);
      return detail
        ? _json(response, 200, detail)
        : _json(response, 404, { error: `no published tool has the kind ${JSON.stringify(kind)}` });
    }
    case 'GET /api/search': {
      const intent = url.searchParams.get('q') ?? '';
      try {
        return _json(response, 200, { matches: options.catalog.search(intent) });
      } catch (error) {
        return _json(response, 400, { error: (error as Error).message });
      }
    }
    case 'GET /api/events':
      return _events(site, request, response);
    case 'POST /api/call':
      return _call(options.caller, request, response);
    case 'GET /api/identity':
      try {
        return _json(response, 200, await endpointIdentities(options.identity));
      } catch (error) {
        return _json(response, 502, { error: `cannot read the announces: ${(error as Error).message}` });
      }
    case 'GET /api/config': {
      const source = options.configSource;
      const { file, ...rest } = redactConfig(source.config());
      return _json(response, 200, {
        origin: source.origin,
        ...(source.generated !== undefined && { generated: source.generated }),
        config: source.generated === undefined ? { file, ...rest } : rest,
        warnings: source.warnings(),
        lastReload: source.lastReload(),
      });
    }
    default:
      return _json(response, 404, { error: `no such console route: ${route}` });
  }
}

/** The live events as server-sent events: those after `Last-Event-ID`, then each new one. */
function _events(site: _ConsoleSite, request: IncomingMessage, response: ServerResponse): void {
  const { events } = site.options;
  response.writeHead(200, { ..._HEADERS, 'content-type': 'text/event-stream; charset=utf-8' });
  const after = Number(request.headers['last-event-id'] ?? 0);
  const write = (event: { seq: number }) =>
    response.write(`id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`);
  for (const event of events.history()) if (event.seq > after) write(event);
  const unsubscribe = events.subscribe(write);
  // A comment now and then keeps idle proxies and the browser from timing the stream out.
  const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), 15_000);
  keepAlive.unref();
  site.streams.add(response);
  response.on('close', () => {
    clearInterval(keepAlive);
    unsubscribe();
    site.streams.delete(response);
  });
}

/** Try a call: `{kind, payload, signer}` as JSON, signed by the dev key or a stranger's. */
async function _call(
  caller: ConsoleCaller,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
    return _json(response, 415, {
      error: `Content-Type: expected application/json, got ${JSON.stringify(request.headers['content-type'] ?? '')}`,
    });
  }
  let body: { kind?: unknown; payload?: unknown; signer?: unknown };
  try {
    body = JSON.parse(await _body(request)) as typeof body;
  } catch (error) {
    return _json(response, 400, { error: `the body: ${(error as Error).message}` });
  }
  if (typeof body.kind !== 'string' || body.kind === '') {
    return _json(response, 400, { error: `kind: expected a string, got ${JSON.stringify(body.kind)}` });
  }
  const signer = body.signer ?? 'dev';
  if (signer !== 'dev' && signer !== 'stranger') {
    return _json(response, 400, {
      error: `signer: expected "dev" or "stranger", got ${JSON.stringify(signer)}`,
    });
  }
  const result = await caller.call(body.kind, body.payload ?? {}, signer as ConsoleSigner);
  return _json(response, 200, result);
}

function _asset(response: ServerResponse, name: string): void {
  const type = _TYPES[/^[a-z0-9-]+\.(html|js|css|svg)$/.exec(name)?.[1] ?? ''];
  let text: Buffer | undefined;
  try {
    if (type !== undefined) text = readFileSync(`${CONSOLE_ASSETS}${name}`);
  } catch {
    // Not shipped: answered 404 below.
  }
  if (type === undefined || text === undefined)
    _json(response, 404, { error: `no such asset: ${JSON.stringify(name)}` });
  else _send(response, 200, type, text);
}

function _send(response: ServerResponse, status: number, type: string, body: string | Buffer): void {
  response.writeHead(status, { ..._HEADERS, 'content-type': type });
  response.end(body);
}

function _json(response: ServerResponse, status: number, value: unknown): void {
  _send(response, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

function _body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > _MAX_BODY) {
        reject(new Error(`larger than ${_MAX_BODY} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
