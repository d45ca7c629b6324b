import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/bin.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // Run from this workspace: its dependencies stay in node_modules, resolved at run time.
  skipNodeModulesBundle: true,
});
