/**
 * Keeps a Streamable HTTP upstream's resumption position across polling reconnections (MCP
 * 2025-11-25 SSE polling; docs/architecture.md, "Streams"). A server may close a request's stream
 * after it sent an event id, and close each resumed connection again while the result is not
 * ready, without sending a new event on it. The SDK's client transport resumes from the last id
 * it saw on the connection that just closed, so after such an empty connection it reconnects with
 * no `Last-Event-ID` at all: a strict server refuses that GET (405), and the request waits for an
 * answer that never comes. Each resumed connection therefore starts, as the transport reads it,
 * with the id it was resumed from (an event with empty data, which the transport records and does
 * not dispatch); the next resumption then names the last id of the stream, not of the connection.
 * @module
 */
import type { FetchLike } from '@modelcontextprotocol/client';

/**
 * `fetch` (or the global fetch) whose GET responses to a request carrying `Last-Event-ID` begin
 * with that id as an empty event. Other requests and responses pass unchanged.
 */
export function _resumingFetch(fetch: FetchLike | undefined): FetchLike {
  const inner: FetchLike = fetch ?? ((input, init) => globalThis.fetch(input, init));
  return async (input, init) => {
    const response = await inner(input, init);
    if ((init?.method ?? 'GET').toUpperCase() !== 'GET' || !response.ok || !response.body) return response;
    const lastEventId = new Headers(init?.headers).get('last-event-id');
    if (!lastEventId || /[\r\n]/.test(lastEventId)) return response;
    if (!response.headers.get('content-type')?.toLowerCase().startsWith('text/event-stream')) return response;
    const prefix = new TextEncoder().encode(`id: ${lastEventId}\ndata: \n\n`);
    const body = response.body.pipeThrough(_prepend(prefix));
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** A pass-through stream that first emits `prefix`. */
function _prepend(prefix: Uint8Array): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      controller.enqueue(prefix);
    },
  });
}
