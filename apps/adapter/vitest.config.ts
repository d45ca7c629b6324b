import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests start relays, adapters and MCP servers as real processes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    benchmark: { include: ['bench/**/*.bench.ts'] },
  },
});
