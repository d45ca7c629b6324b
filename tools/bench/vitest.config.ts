import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The gate starts relays, adapters and MCP servers as real processes on a busy machine.
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
