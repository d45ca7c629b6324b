/**
 * The floor peer: a bare Node passthrough (peers/floor-passthrough.mjs) in front of an upstream,
 * raced beside the gateways so every run reports the distance to what Node itself can do.
 * @module
 */
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { httpClient } from './mcp-peers.js';
import { freePort, PEERS_DIR, type Processes, waitForLine } from './processes.js';

/**
 * Starts the passthrough in front of `upstream` — `['stdio', command, …args]` or `['http', url]` —
 * and connects an SDK client to it.
 */
export async function startFloor(
  procs: Processes,
  upstream: readonly string[],
  env: Record<string, string> = {},
): Promise<Client> {
  const port = await freePort();
  const floor = procs.spawn(join(PEERS_DIR, 'floor-passthrough.mjs'), [String(port), ...upstream], { env });
  await waitForLine(floor, 'stdout', (line) => line === 'floor listening', 30_000, 'floor passthrough');
  return httpClient('floor', `http://127.0.0.1:${port}/mcp`);
}
