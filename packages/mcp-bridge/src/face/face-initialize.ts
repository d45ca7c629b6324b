/**
 * The face's `instructions` composed when a client asks for them (`initialize`, and
 * `server/discover` of MCP 2026-07-28), not when its server is made: the guidance of XProtocol
 * sources comes with their catalogs, fetched on first use, and a stdio face's one server is made
 * before any catalog is in. The answer waits for the first fetch (bounded by the catalog timeout).
 * @module
 */
import type { Server } from '@modelcontextprotocol/server';

/**
 * The SDK server's own answers to `initialize` and `server/discover`, and the instructions they
 * read at the time of the request: the SDK takes instructions only in the constructor, and its
 * answers also negotiate the revision and keep the client's capabilities, which the face must not
 * redo. Kept to this one module; `test/face-instructions.test.ts` fails when the SDK renames them.
 */
interface _SdkInitialize {
  _instructions?: string | undefined;
  _oninitialize(request: unknown): Promise<Record<string, unknown>>;
  _ondiscover(): Record<string, unknown>;
}

/**
 * Makes `server` answer `initialize` (and, for a 2026-07-28 server, `modern`, `server/discover`)
 * with `compose()`'s instructions of that moment.
 */
export function _instructionsAtInitialize(
  server: Server,
  modern: boolean,
  compose: () => Promise<string | undefined>,
): void {
  const sdk = server as unknown as _SdkInitialize;
  if (typeof sdk._oninitialize !== 'function' || typeof sdk._ondiscover !== 'function') {
    throw new Error('internal: the MCP SDK server no longer answers initialize as the face expects');
  }
  server.setRequestHandler('initialize', async (request) => {
    sdk._instructions = await compose();
    return sdk._oninitialize(request) as never;
  });
  if (!modern) return;
  server.setRequestHandler(
    'server/discover' as never,
    (async () => {
      sdk._instructions = await compose();
      return sdk._ondiscover();
    }) as never,
  );
}
