/**
 * A `fetch` whose response bodies are read whole, through the capped reader (capped-body.ts),
 * before the caller gets the response: what the caller then reads (`json()`, `text()`) is already
 * in memory and at most the cap. Made for `jose`'s `createRemoteJWKSet(url, { [customFetch]: … })`,
 * which would otherwise read a JWKS of any size, and used for any other document fetched whole.
 * @module
 */
import { readCappedBody } from './capped-body.js';

/** The shape of `fetch` this wrapper takes and gives (what `jose`'s `customFetch` calls). */
export type FetchFunction = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** Options of {@link cappedFetch}. */
export interface CappedFetchOptions {
  /** The most bytes of one response body read. */
  maxBytes: number;
  /** What a response of `url` is, the subject of the errors: `(url) => \`the JWKS at ${url}\``. */
  what: (url: string) => string;
  /** The fetch underneath. Default: the global `fetch`. */
  fetch?: FetchFunction;
}

/**
 * A fetch that reads each successful (2xx) response body with the cap of `options` and answers a
 * `Response` holding those bytes, same status and headers. Rejects with `RESPONSE_TOO_LARGE` (the
 * body declared or streamed over the cap; the transfer is stopped) or with the fetch's own error.
 * The body of any other status is not read: the transfer is cancelled and the response has no body.
 */
export function cappedFetch(options: CappedFetchOptions): FetchFunction {
  return async (input, init) => {
    const response = await (options.fetch ?? fetch)(input, init);
    const shape = { status: response.status, statusText: response.statusText, headers: response.headers };
    if (response.body === null) return response;
    if (!response.ok) {
      await response.body.cancel().catch(() => {});
      return new Response(null, shape);
    }
    const url = input instanceof URL ? input.href : input;
    const bytes = await readCappedBody(response.body, {
      maxBytes: options.maxBytes,
      what: options.what(url),
      declaredLength: response.headers.get('content-length'),
    });
    return new Response(bytes, shape);
  };
}
