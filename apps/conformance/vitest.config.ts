import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The suite starts a relay, adapters and MCP servers as real processes.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // One file at a time: the run against our adapter first, alone, then the broken adapters
    // (concurrently inside their file); both spawn many processes on a small machine.
    fileParallelism: false,
    maxConcurrency: 3,
  },
});
