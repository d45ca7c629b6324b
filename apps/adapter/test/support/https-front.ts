/**
 * An HTTPS front for tests: a self-signed certificate for the given host names (made by the
 * `openssl` command), and a server on 127.0.0.1 that answers every GET with what an HTTP origin
 * answers for the same path. A child process trusts the certificate through NODE_EXTRA_CA_CERTS,
 * so an `xp://<name>:<port>` endpoint is reached over real TLS, as a public host would be.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** A running front. */
export interface HttpsFront {
  readonly port: number;
  /** The certificate's PEM file, for NODE_EXTRA_CA_CERTS. */
  readonly caFile: string;
  close(): Promise<void>;
}

/** Makes the certificate in `dir` and serves `origin` (an http:// base URL) over HTTPS. */
export async function startHttpsFront(dir: string, names: string[], origin: string): Promise<HttpsFront> {
  const keyFile = join(dir, 'front-key.pem');
  const caFile = join(dir, 'front-cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      caFile,
      '-days',
      '2',
      '-subj',
      '/CN=xprotocol test front',
      '-addext',
      `subjectAltName=${names.map((name) => `DNS:${name}`).join(',')}`,
    ],
    { stdio: 'pipe' },
  );
  const server = createServer(
    { key: readFileSync(keyFile), cert: readFileSync(caFile) },
    (request, response) => {
      fetch(new URL(request.url ?? '/', origin)).then(
        async (upstream) => {
          response.writeHead(upstream.status, {
            'content-type': upstream.headers.get('content-type') ?? 'text/plain',
          });
          response.end(Buffer.from(await upstream.arrayBuffer()));
        },
        (error: unknown) => {
          response.writeHead(502);
          response.end(String(error));
        },
      );
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    caFile,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
