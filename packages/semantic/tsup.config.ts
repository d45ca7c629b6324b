import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/search.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
});
