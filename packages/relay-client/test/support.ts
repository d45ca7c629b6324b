// Shared helpers for the pool tests: real relays on loopback and real signed events.
import { randomBytes } from 'node:crypto';
import { type EventTemplate, signEvent, type XpEvent } from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { type Relay, type RelayOptions, SqliteEventStore, startRelay } from '@xprotocol/relay';

export { freePort } from '@xprotocol/test-ports';

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
