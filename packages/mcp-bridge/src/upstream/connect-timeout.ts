/**
 * The bound on one connection attempt to an upstream MCP server: a server that never finishes its
 * handshake (never answers `initialize` or `server/discover`, never acknowledges
 * `subscriptions/listen`) fails the attempt with a reason, so the source says why it is not
 * connected instead of staying "still connecting".
 * @module
 */

/** How long one connection attempt may take when no `connectTimeoutMs` is configured. */
export const _CONNECT_TIMEOUT_MS = 30_000;

/** `connecting`, or a rejection naming the bound when it takes longer than `ms`. */
export function _within<T>(connecting: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the MCP handshake did not finish within ${ms} ms (connect timeout)`)),
      ms,
    );
  });
  return Promise.race([connecting, late]).finally(() => clearTimeout(timer));
}
