// Reading a well-known document (docs/security.md, "Outbound addresses"): loopback servers only.
import { createServer, type Server } from 'node:http';
import { AddressPolicy } from '@xprotocol/relay-client';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveXpEndpoint } from '../src/index.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<number> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

const DOC = {
  version: 'xp1',
  public_key: `ed25519:${'1'.repeat(64)}`,
  x25519: `x25519:${'2'.repeat(64)}`,
  relays: ['wss://relay.example/'],
  schema_url: 'https://x/xp/schemas',
  adapter: true,
};

describe('resolveXpEndpoint', () => {
  it('reads a document from a loopback endpoint the configuration names', async () => {
    const port = await serve((_q, r) => r.end(JSON.stringify(DOC)));
    expect(await resolveXpEndpoint(`xp://127.0.0.1:${port}`)).toMatchObject({ public_key: DOC.public_key });
  });

  it('refuses a declared length over the cap before reading the body', async () => {
    let closed = false;
    const port = await serve((_q, r) => {
      r.writeHead(200, { 'content-length': String(1024 ** 3) });
      r.write('{');
      r.on('close', () => {
        closed = true;
      });
    });
    await expect(resolveXpEndpoint(`xp://127.0.0.1:${port}`)).rejects.toThrow(
      /the document declares 1073741824 bytes; at most 65536 are read/,
    );
    await expect.poll(() => closed).toBe(true);
  });

  it('does not follow a redirect', async () => {
    const port = await serve((_q, r) => {
      r.writeHead(302, { location: 'http://169.254.169.254/' });
      r.end();
    });
    await expect(resolveXpEndpoint(`xp://127.0.0.1:${port}`)).rejects.toThrow(
      /HTTP 302 \(redirects are not followed\)/,
    );
  });

  it('resolves a host name through the policy, checks every address and dials the checked one', async () => {
    const port = await serve((_q, r) => r.end(JSON.stringify(DOC)));
    let connections = 0;
    server!.on('connection', () => connections++);
    // A name whose answer holds one public and one loopback address (as a rebinding attacker would).
    const resolve = async () => [
      { address: '8.8.8.8', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    await expect(
      resolveXpEndpoint(`xp://evil.test:${port}`, { policy: new AddressPolicy({ resolve }) }),
    ).rejects.toThrow(
      `cannot fetch https://evil.test:${port}/.well-known/xprotocol-endpoint: evil.test resolves to 127.0.0.1 is a loopback address`,
    );
    // Allowed: the connection goes to the address the policy returned (evil.test is in no DNS).
    const pinned = new AddressPolicy({
      allow: ['127.0.0.0/8'],
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    const error = await resolveXpEndpoint(`xp://evil.test:${port}`, { policy: pinned }).then(
      () => undefined,
      (e: Error) => e.message,
    );
    // HTTPS (the name is not loopback) against a plain HTTP listener: the TLS handshake fails there.
    expect(error).toMatch(/cannot fetch https:\/\/evil\.test:\d+/);
    expect(error).not.toMatch(/ENOTFOUND|resolves to/);
    expect(connections).toBe(1); // refused: no connection; pinned: one, to 127.0.0.1
  });
});
