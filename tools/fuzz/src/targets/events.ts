/**
 * Events from the outside: signature verification (`@xprotocol/crypto`), the relay's admission of
 * an EVENT (`@xprotocol/relay`), and opening a sealed event. A changed event never verifies, never
 * opens, and is refused with a reason, never with an exception other than the documented one.
 * @module
 */

import {
  CryptoError,
  createEventTemplate,
  generateIdentity,
  openEvent,
  sealEvent,
  signEvent,
  verifyEvent,
  type XpEvent,
} from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { checkIncomingEvent } from '@xprotocol/relay';
import fc from 'fast-check';
import { anyJson, mutate, mutation } from '../arbitraries.js';
import { type FuzzTarget, rule } from '../target.js';

const FIELDS = ['id', 'pubkey', 'created_at', 'kind', 'tags', 'content', 'sig'] as const;
const backends = { signatures: nodeSignatures, cipher: nodeCipher };

/** A few valid signed events to change. */
function _signed(count: number): XpEvent[] {
  const identity = generateIdentity(backends);
  const now = Math.floor(Date.now() / 1000);
  return Array.from({ length: count }, (_, i) =>
    signEvent(
      createEventTemplate({
        kind: i % 2 ? 'com.test.fuzz.call' : 'xp.mcp.request',
        content: JSON.stringify({ n: i }),
        tags: [['p', identity.keys.ed25519]],
        created_at: now,
        expiration: now + 3600,
      }),
      identity.ed25519.secretKey,
      nodeSignatures,
    ),
  );
}

/** An input: a valid event changed (or not), or any JSON at all. */
function _inputs(valid: XpEvent[]): fc.Arbitrary<{ base: number; event: unknown; changed: boolean }> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.tuple(fc.nat({ max: valid.length - 1 }), mutation(FIELDS)).map(([base, m]) => {
        const event = mutate(valid[base] as unknown as Record<string, unknown>, m);
        return { base, event, changed: JSON.stringify(event) !== JSON.stringify(valid[base]) };
      }),
    },
    { weight: 1, arbitrary: anyJson.map((event) => ({ base: -1, event, changed: true })) },
  );
}

export const eventVerification: FuzzTarget = {
  name: 'event-verify',
  rule: 'a changed event never verifies; an unchanged one does; verification never throws',
  weight: 10,
  async open() {
    const valid = _signed(4);
    return {
      arbitrary: _inputs(valid),
      check: ({ event, changed }: { event: unknown; changed: boolean }) => {
        const verdict = verifyEvent(event, nodeSignatures);
        rule(verdict.ok === !changed, changed ? 'a changed event verified' : 'a valid event was refused');
        if (!verdict.ok) rule(verdict.message.length > 0, 'refused without a reason');
      },
    };
  },
};

export const relayAdmission: FuzzTarget = {
  name: 'relay-admission',
  rule: 'the relay admits only unchanged events; every refusal has a reason prefix and a message',
  weight: 10,
  async open() {
    const valid = _signed(4);
    const options = { maxEventBytes: 4 * 2 ** 20, maxFutureSeconds: 300, maxAgeSeconds: 3600 };
    return {
      arbitrary: _inputs(valid),
      check: async ({ event, changed }: { event: unknown; changed: boolean }) => {
        const verdict = await checkIncomingEvent(event, Math.floor(Date.now() / 1000), options);
        rule(verdict.ok === !changed, changed ? 'a changed event was admitted' : 'a valid event was refused');
        if (!verdict.ok)
          rule(verdict.prefix.length > 0 && verdict.message.length > 0, 'refused without a reason');
      },
    };
  },
};

export const sealedEvents: FuzzTarget = {
  name: 'sealed-open',
  rule: 'a changed sealed event never opens (CryptoError, nothing else); an unchanged one gives its plaintext',
  weight: 3,
  async open() {
    const sender = generateIdentity(backends);
    const recipient = generateIdentity(backends);
    const now = Math.floor(Date.now() / 1000);
    const sealed = [0, 1, 2].map((n) =>
      sealEvent(
        { kind: 'com.test.fuzz.call', payload: { n }, expiration: now + 3600 },
        sender,
        recipient.keys,
        backends,
      ),
    );
    return {
      arbitrary: _inputs(sealed),
      check: ({ base, event, changed }: { base: number; event: unknown; changed: boolean }) => {
        try {
          const opened = openEvent(event, recipient, backends);
          rule(!changed, 'a changed sealed event opened');
          rule(
            opened.plaintext === JSON.stringify({ n: base }),
            'an unchanged sealed event opened to something else',
          );
        } catch (error) {
          if (!(error instanceof CryptoError))
            throw new Error(`opening threw ${(error as Error)?.name}: ${(error as Error)?.message}`);
          rule(changed, `a valid sealed event was refused: ${error.message}`);
        }
      },
    };
  },
};
