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
});
