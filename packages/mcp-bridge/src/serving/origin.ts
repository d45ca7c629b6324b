/**
 * The `Origin` rule of the HTTP MCP face (docs/security.md, "The HTTP face"): a browser request is
 * served only when its `Origin` is, exactly, one of the allowed origins — the face's own origins
 * (`http://` + each name the face answers to + its port) and those the operator lists
 * (`mcp_server.allowed_origins`). Scheme, host and port are compared as a whole, so another local
 * port (`http://127.0.0.1:6274`), another scheme (`ftp://127.0.0.1`) or a value that is not an
 * origin at all (`http://127.0.0.1:8767/x`, `null`) is refused. A request without `Origin` (every
 * non-browser client) passes: the header is what a browser adds, and the Host check still applies.
 * @module
 */

/** The outcome of {@link _checkOrigin}: `ok`, or the reason it is refused. */
export type _OriginCheck = { ok: true } | { ok: false; message: string };

/**
 * The serialized origins a request may come from: `http://<name>:<port>` for every name in
 * `hostnames` (already bracketed for IPv6), plus `extra` normalized (`new URL(x).origin`).
 * Throws on an `extra` entry that is not an `http(s)://host[:port]` origin.
 */
export function _allowedOrigins(
  hostnames: readonly string[],
  port: number,
  extra: readonly string[] = [],
): Set<string> {
  const origins = new Set(hostnames.map((name) => new URL(`http://${name}:${port}`).origin));
  for (const entry of extra) origins.add(_originOf(entry));
  return origins;
}

/**
 * Whether `header` (the request's `Origin`) is allowed. Absent or empty: allowed (no browser).
 * Otherwise it must be a serialized origin — what `new URL(header).origin` gives back unchanged —
 * and one of `allowed`.
 */
export function _checkOrigin(header: string | undefined, allowed: ReadonlySet<string>): _OriginCheck {
  if (header === undefined || header === '') return { ok: true };
  let origin: string | undefined;
  try {
    origin = new URL(header).origin;
  } catch {
    origin = undefined;
  }
  if (origin === undefined || origin === 'null' || origin !== header) {
    return {
      ok: false,
      message: `Invalid Origin: expected an origin (scheme://host[:port], nothing after it), got ${JSON.stringify(header)}`,
    };
  }
  if (!allowed.has(origin)) {
    return {
      ok: false,
      message: `Invalid Origin: ${origin} is not one of the allowed origins (${[...allowed].join(', ')}); list it in mcp_server.allowed_origins to allow it`,
    };
  }
  return { ok: true };
}

function _originOf(entry: string): string {
  let url: URL | undefined;
  try {
    url = new URL(entry);
  } catch {
    url = undefined;
  }
  const bare = url !== undefined && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
  if (
    !url ||
    !bare ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username ||
    url.password
  ) {
    throw new Error(
      `allowed origin: expected an http:// or https:// origin (scheme://host[:port], no path), got ${JSON.stringify(entry)}`,
    );
  }
  return url.origin;
}
