// Shared helpers for the pool tests: real relays on loopback and real signed events.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { type EventTemplate, signEvent, type XpEvent } from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { type Relay, type RelayOptions, SqliteEventStore, startRelay } from '@xprotocol/relay';

export const secret = (): Uint8Array => new Uint8Array(randomBytes(32));

export function event(key: Uint8Array, overrides: Partial<EventTemplate> = {}): XpEvent {
  return signEvent(
    {
      created_at: Math.floor(Date.now() / 1000),
      kind: 'com.test.pool',
      tags: [],
      content: 'x',
      ...overrides,
    },
    key,
    nodeSignatures,
  );
}

/**
 * A loopback port free a moment ago, chosen below the kernel's ephemeral range (32768–60999 on
 * Linux): a port bound to 0 and released comes from that range, where any process's outbound
 * connection (another suite's, running beside this one) can take it before the caller binds it.
 * Below it, only another explicit bind can, and two picks at random rarely meet.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await _canBind(port)) return port;
  }
  throw new Error('no free loopback port between 20000 and 31999 after 50 tries');
}

/** Whether `port` can be bound on 127.0.0.1 right now (the probe is closed again). */
function _canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export function startOn(port: number, db?: string, options: RelayOptions = {}): Promise<Relay> {
  return startRelay({ port, ...(db && { store: new SqliteEventStore({ path: db }) }), ...options });
}

export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 8000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
