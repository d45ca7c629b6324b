// testdata/vectors/xp-well-known.json (docs/protocol.md §10.10): each document, served over real
// HTTP on 127.0.0.1, is read by `resolveXpEndpoint` (what an adapter does for `xp://host`) into
// exactly the file's `read`, or refused naming the file's field; a body over the cap, a redirect
// and a body that is not JSON are refused too; and what our own discovery server serves reads back.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveXpEndpoint, serveDiscovery } from '../src/index.js';
import { loadVectorFile } from './support/vectors.js';

interface WellKnownVectors {
  description: string;
  max_bytes: number;
  valid: { id: string; document: unknown; read: unknown }[];
  invalid: { id: string; document: unknown; field: string | null }[];
}

const vectors = loadVectorFile<WellKnownVectors>('testdata/vectors/xp-well-known.json');

/** What the test server answers next: status, headers and body. */
let next: { status: number; body: string; headers?: Record<string, string> } = { status: 404, body: '' };
let server: Server;
let endpoint: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    expect(request.url).toBe('/.well-known/xprotocol-endpoint');
    response.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
    response.end(next.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `xp://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function _serve(body: string, status = 200, headers?: Record<string, string>): void {
  next = { status, body, ...(headers && { headers }) };
}

describe('testdata/vectors/xp-well-known.json', () => {
  it('names its section', () => {
    expect(vectors.description).toContain('docs/protocol.md §10.10');
  });

  it.each(vectors.valid.map((v) => [v.id, v] as const))('valid %s: read as the file says', async (_id, v) => {
    _serve(JSON.stringify(v.document));
    expect(await resolveXpEndpoint(endpoint, { timeoutMs: 5000 })).toEqual(v.read);
  });

  it.each(vectors.invalid.map((v) => [v.id, v] as const))('invalid %s: refused', async (_id, v) => {
    _serve(JSON.stringify(v.document));
    const refused = resolveXpEndpoint(endpoint, { timeoutMs: 5000 });
    await expect(refused).rejects.toThrow(
      v.field === null ? /expected a JSON object/ : new RegExp(`: ${v.field}: `),
    );
  });

  it('refuses a body over the cap, a redirect and a body that is not JSON', async () => {
    const minimal = vectors.valid[0]!.document as Record<string, unknown>;
    _serve(JSON.stringify({ ...minimal, padding: 'x'.repeat(vectors.max_bytes) }));
    await expect(resolveXpEndpoint(endpoint, { timeoutMs: 5000 })).rejects.toThrow(/65536/);
    _serve('', 302, { location: 'http://127.0.0.1:1/.well-known/xprotocol-endpoint' });
    await expect(resolveXpEndpoint(endpoint, { timeoutMs: 5000 })).rejects.toThrow(
      /redirects are not followed/,
    );
    _serve('version=xp1');
    await expect(resolveXpEndpoint(endpoint, { timeoutMs: 5000 })).rejects.toThrow(/not JSON/);
  });

  it('what our discovery server serves is a valid document', async () => {
    const minimal = vectors.valid[1]!.document as Record<string, unknown>;
    const { schema_url: _ignored, ...served } = minimal;
    const discovery = await serveDiscovery({
      host: '127.0.0.1',
      port: 0,
      document: () => served as never,
      page: () => ({ contracts: [], total: 0 }),
    });
    try {
      const read = await resolveXpEndpoint(`xp://${new URL(discovery.url).host}`, { timeoutMs: 5000 });
      expect(read).toEqual({ ...served, schema_url: `${discovery.url}/xp/schemas` });
    } finally {
      await discovery.close();
    }
  });
});
