import { cpSync, mkdirSync } from 'node:fs';
import { defineConfig } from 'tsup';

export default defineConfig({
  // The test MCP server is its own entry: adapters start it as a child process.
  entry: ['src/index.ts', 'src/bin.ts', 'src/test-server.ts'],
  format: ['esm'],
  // Types for the library entry only: the bin and the test server have no importers.
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // The relay vectors ship inside the package (`relay` reads dist/vectors, never the repository).
  onSuccess: async () => {
    mkdirSync('dist/vectors', { recursive: true });
    for (const name of ['xp-relay-frames.json', 'xp-relay-filters.json']) {
      cpSync(`../../testdata/vectors/${name}`, `dist/vectors/${name}`);
    }
  },
});
