/**
 * The `Origin` check of a WebSocket upgrade. A browser adds `Origin` to every WebSocket it opens,
 * and WebSockets are not bound by the same-origin policy: without this check any web page the
 * user visits could publish to and read from a relay on loopback. An upgrade that carries `Origin`
 * is served only when that origin is one of the relay's allowed origins, compared exactly (scheme,
 * host and port); an upgrade without `Origin` comes from a program, not a page, and is served.
 * The allow-list is empty unless the operator names origins (`allowedOrigins`, `--allow-origin`).
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { RelayError } from './errors.js';
import type { _UpgradeRefusal } from './relay-listener.js';

/** The longest `Origin` quoted back in a refusal. */
const MAX_QUOTED = 200;

/**
 * Checks an allow-list entry: each must be an origin as a browser sends it — `scheme://host[:port]`,
 * lowercase, no default port, nothing after it. Returns the entries as a set; throws
 * `INVALID_OPTIONS` naming the entry and, when there is one, the origin it probably meant.
 */
export function _allowedOrigins(entries: readonly string[]): ReadonlySet<string> {
  for (const entry of entries) {
    const problem = _originProblem(entry);
    if (problem !== undefined) throw new RelayError('INVALID_OPTIONS', `allowedOrigins: ${problem}`);
  }
  return new Set(entries);
}

/**
 * What is wrong with `text` as an allowed origin, or `undefined` when it is one. The sentence is
 * shown after the option's name (`allowedOrigins: …`, `--allow-origin …`).
 */
export function _originProblem(text: string): string | undefined {
  let origin: string | undefined;
  try {
    const url = new URL(text);
    origin = url.origin === 'null' ? undefined : url.origin;
  } catch {
    origin = undefined;
  }
  if (origin === text) return undefined;
  const hint = origin === undefined ? '' : `; did you mean ${JSON.stringify(origin)}?`;
  return `expects an origin (scheme://host[:port], nothing after it), got ${JSON.stringify(text)}${hint}`;
}

/**
 * Refuses (403) an upgrade whose `Origin` (or the `Sec-WebSocket-Origin` of protocol version 8) is
 * present and not in `allowed`; `undefined` lets it through.
 */
export function _checkOrigin(
  request: IncomingMessage,
  allowed: ReadonlySet<string>,
): _UpgradeRefusal | undefined {
  const origin = request.headers.origin ?? request.headers['sec-websocket-origin'];
  if (origin === undefined) return undefined;
  const text = Array.isArray(origin) ? origin.join(', ') : origin;
  if (allowed.has(text)) return undefined;
  const quoted = JSON.stringify(text.slice(0, MAX_QUOTED));
  const list = allowed.size === 0 ? 'none' : [...allowed].join(', ');
  const remedy =
    _originProblem(text) === undefined
      ? `A web page may use this relay only when its origin is allowed: start xprotocol-relay with --allow-origin ${text} (the allowedOrigins option of startRelay).`
      : 'It is not an origin (scheme://host[:port]) that can be allowed.';
  return {
    status: 403,
    body:
      `This relay refuses WebSocket connections from the browser origin ${quoted}: it is not one of ` +
      `the relay's allowed origins (${list}). ${remedy} Programs that send no Origin header are not affected.\n`,
  };
}
