// Plain JavaScript, run as it is: plain .mjs scripts import it as well as TypeScript tests, and it
// needs no build step before the first test runs.
import { createServer } from 'node:net';

/** The picked range: below Linux's ephemeral range (32768–60999), above the well-known ports. */
const FIRST_PORT = 20_000;
const PORT_COUNT = 12_000;
const ATTEMPTS = 50;

/**
 * A loopback port free a moment ago, chosen below the kernel's ephemeral range (32768–60999 on
 * Linux): a port bound to 0 and released comes from that range, where any process's outbound
 * connection (another suite's, running beside this one) can take it before the caller binds it.
 * Below it, only another explicit bind can, and two picks at random rarely meet.
 *
 * @returns {Promise<number>}
 */
export async function freePort() {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = FIRST_PORT + Math.floor(Math.random() * PORT_COUNT);
    if (await canBind(port)) return port;
  }
  throw new Error(
    `no free loopback port between ${FIRST_PORT} and ${FIRST_PORT + PORT_COUNT - 1} after ${ATTEMPTS} tries`,
  );
}

/**
 * Whether `port` can be bound on 127.0.0.1 right now (the probe is closed again).
 *
 * @param {number} port
 * @returns {Promise<boolean>}
 */
export function canBind(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
