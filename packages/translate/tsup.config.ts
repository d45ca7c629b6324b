import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/proto.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // ajv's draft-06 meta-schema is JSON: inline it, so the output needs no JSON import attribute
  noExternal: [/json-schema-draft-06\.json$/],
});
