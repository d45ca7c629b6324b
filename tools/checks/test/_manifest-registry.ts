/**
 * An npm registry on 127.0.0.1 that knows the packed packages' manifests and nothing else: no
 * tarball, no third-party package. `npx @xprotocol/<package>` asks the registry for the package's
 * manifest (to learn its bin) before it looks in the global folder, so after a global install of
 * the tarballs this is what lets npx resolve to the installed bin as it would once the packages
 * are published, while anything npx would have to download fails.
 * @module
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readTarball } from './_tarball.js';

/** A running manifest registry: its URL (the value of npm's `registry` setting) and how to stop it. */
export interface ManifestRegistry {
  url: string;
  close(): Promise<void>;
}

/** Serves the packuments of the given tarballs on a free loopback port. */
export async function startManifestRegistry(tarballs: readonly string[]): Promise<ManifestRegistry> {
  const packuments = new Map<string, string>();
  const server = createServer((request, response) => {
    const name = decodeURIComponent((request.url ?? '/').slice(1).split('?')[0]!);
    const packument = packuments.get(name);
    response.writeHead(packument === undefined ? 404 : 200, { 'content-type': 'application/json' });
    response.end(packument ?? '{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  for (const tarball of tarballs) {
    const manifest = JSON.parse(readTarball(tarball).get('package/package.json')!.toString('utf8')) as {
      name: string;
      version: string;
    };
    const version = {
      ...manifest,
      _id: `${manifest.name}@${manifest.version}`,
      // Not served: npx must never need the tarball (it would install instead of running the global bin).
      dist: { tarball: `${url}-/not-served/${manifest.version}.tgz` },
    };
    packuments.set(
      manifest.name,
      JSON.stringify({
        name: manifest.name,
        'dist-tags': { latest: manifest.version },
        versions: { [manifest.version]: version },
      }),
    );
  }
  return {
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
