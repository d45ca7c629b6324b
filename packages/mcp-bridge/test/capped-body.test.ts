// The package's one capped reader of network bodies (src/outbound/): a declared length over the cap
// is refused unread, a streamed body stops (its stream destroyed or cancelled) as soon as it passes
// the cap, a body of exactly the cap is read — for a Node stream, a WHATWG stream, and through the
// fetch wrapper handed to jose, against a loopback server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeError } from '../src/errors.js';
import { readCappedBody } from '../src/outbound/capped-body.js';
import { cappedFetch } from '../src/outbound/capped-fetch.js';

const KIB = 1024;

/** An endless Node stream of `size`-byte chunks; `pulled` counts the chunks handed out. */
function endlessNodeStream(size = 16 * KIB) {
  const state = { pulled: 0 };
  const stream = new Readable({
    read() {
      state.pulled++;
      this.push(Buffer.alloc(size, 0x20));
    },
  });
  return { stream, state };
}

/** An endless WHATWG stream of `size`-byte chunks; `cancelled` tells whether it was cancelled. */
function endlessWebStream(size = 16 * KIB) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled++;
      controller.enqueue(new Uint8Array(size));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

async function refusal(promise: Promise<unknown>): Promise<BridgeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BridgeError);
  expect((error as BridgeError).code).toBe('RESPONSE_TOO_LARGE');
  return error as BridgeError;
}

describe('readCappedBody', () => {
  it('refuses a declared length over the cap before reading, and destroys the Node stream', async () => {
    const { stream, state } = endlessNodeStream();
    const error = await refusal(
      readCappedBody(stream, { maxBytes: 64 * KIB, what: 'the document', declaredLength: '1073741824' }),
    );
    expect(error.message).toBe('the document declares 1073741824 bytes; at most 65536 are read');
    expect(stream.destroyed).toBe(true);
    expect(state.pulled).toBeLessThanOrEqual(1); // what the stream buffered on its own, never read
  });

  it('refuses a declared length over the cap and cancels a WHATWG stream', async () => {
    const { stream, state } = endlessWebStream();
    const error = await refusal(
      readCappedBody(stream, { maxBytes: 10, what: 'the JWKS at http://as/jwks', declaredLength: 11 }),
    );
    expect(error.message).toBe('the JWKS at http://as/jwks declares 11 bytes; at most 10 are read');
    expect(state.cancelled).toBe(true);
  });

  it('stops an endless Node stream as soon as the bytes read pass the cap', async () => {
    const { stream, state } = endlessNodeStream(16 * KIB);
    const error = await refusal(readCappedBody(stream, { maxBytes: 40 * KIB, what: 'the document' }));
    // 16 + 16 + 16 KiB: the third chunk passes 40 KiB, and the read stops there.
    expect(error.message).toBe('the document is over 40960 bytes; stopped reading at 49152');
    expect(stream.destroyed).toBe(true);
    expect(state.pulled).toBeLessThan(8);
  });

  it('stops an endless WHATWG stream as soon as the bytes read pass the cap, cancelling it', async () => {
    const { stream, state } = endlessWebStream(16 * KIB);
    const error = await refusal(readCappedBody(stream, { maxBytes: 16 * KIB, what: 'the metadata' }));
    expect(error.message).toBe('the metadata is over 16384 bytes; stopped reading at 32768');
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(8);
  });

  it('reads a body of exactly the cap, declared or not, as it came', async () => {
    const body = Buffer.from('x'.repeat(3 * KIB));
    const chunks = [body.subarray(0, KIB), body.subarray(KIB, 2 * KIB), body.subarray(2 * KIB)];
    const declared = await readCappedBody(Readable.from(chunks), {
      maxBytes: 3 * KIB,
      what: 'the document',
      declaredLength: String(3 * KIB),
    });
    expect(declared.equals(body)).toBe(true);
    const streamed = await readCappedBody(new Response(body).body!, {
      maxBytes: 3 * KIB,
      what: 'the document',
    });
    expect(streamed.equals(body)).toBe(true);
    // One byte more is refused.
    await refusal(readCappedBody(Readable.from([body, Buffer.from('!')]), { maxBytes: 3 * KIB, what: 'x' }));
  });

  it('ignores a declared length that is not a number, and an empty body is empty', async () => {
    const read = await readCappedBody(Readable.from([Buffer.from('{}')]), {
      maxBytes: 10,
      what: 'the document',
      declaredLength: 'lots',
    });
    expect(read.toString()).toBe('{}');
    expect((await readCappedBody(Readable.from([]), { maxBytes: 0, what: 'x' })).length).toBe(0);
  });

  it('passes a stream error on as it is', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('ECONNRESET'));
      },
    });
    await expect(readCappedBody(failing, { maxBytes: 10, what: 'x' })).rejects.toThrow('ECONNRESET');
  });
});

describe('cappedFetch (the fetch handed to jose as customFetch)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  const jwks = cappedFetch({ maxBytes: 256 * KIB, what: (url) => `the JWKS at ${url}` });

  it('stops reading an endless body at the cap and hangs up', async () => {
    let sent = 0;
    let closed = false;
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"keys":[');
      const chunk = Buffer.alloc(64 * KIB, 0x20);
      const pump = () => {
        while (!response.destroyed && sent < 1024 ** 3) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      response.on('close', () => {
        closed = true;
      });
      pump();
    });
    const error = await refusal(jwks(`${base}/jwks`));
    expect(error.message).toMatch(
      new RegExp(
        `^the JWKS at ${base.replace(/\./g, '\\.')}/jwks is over 262144 bytes; stopped reading at \\d+$`,
      ),
    );
    await expect.poll(() => closed, { timeout: 10_000 }).toBe(true);
    expect(sent).toBeLessThan(64 * 1024 ** 2);
  });

  it('refuses a declared length over the cap before reading', async () => {
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-length': String(1024 ** 2) });
      response.write('{');
    });
    const error = await refusal(jwks(new URL(`${base}/jwks`)));
    expect(error.message).toBe(`the JWKS at ${base}/jwks declares 1048576 bytes; at most 262144 are read`);
  });

  it('hands back a body within the cap as a Response with its status and headers', async () => {
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/jwk-set+json', 'x-extra': 'kept' });
      response.end(JSON.stringify({ keys: [] }));
    });
    const response = await jwks(`${base}/jwks`, { method: 'GET', redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-extra')).toBe('kept');
    expect(await response.json()).toEqual({ keys: [] });
  });

  it('does not read the body of a failed response', async () => {
    const base = await serve((_request, response) => {
      response.writeHead(500, { 'content-length': String(1024 ** 3) });
      response.write('x');
    });
    const response = await jwks(`${base}/jwks`);
    expect(response.status).toBe(500);
    expect(response.body).toBeNull();
  });
});
