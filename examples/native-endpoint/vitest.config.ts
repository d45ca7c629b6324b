import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The end-to-end test starts a relay, the example, adapters and the conformance suite as processes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
