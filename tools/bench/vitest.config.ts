import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The gate starts relays, adapters and MCP servers as real processes on a busy machine (npm
    // test runs other suites beside it), and measures twice when the first run is over: a bound
    // on a hang only, never on speed.
    testTimeout: 420_000,
    hookTimeout: 120_000,
  },
});
