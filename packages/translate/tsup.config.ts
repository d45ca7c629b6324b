import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/proto.ts'],
  // each entry whole: the root entry imports only its declared dependencies (browser-entry.test.ts),
  // and the proto entry shares no state with it (a few helper lines are copied, no classes)
  splitting: false,
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // ajv's draft-06 meta-schema is JSON: inline it, so the output needs no JSON import attribute
  noExternal: [/json-schema-draft-06\.json$/],
});
