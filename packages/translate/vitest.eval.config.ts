import { defineConfig } from 'vitest/config';

// The whole-corpus evaluations, run by hand (`pnpm --filter @xprotocol/translate eval:proto`), not by npm test.
export default defineConfig({
  test: { include: ['eval/**/*.eval.ts'] },
});
