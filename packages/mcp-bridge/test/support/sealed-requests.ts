// Sealed requests handed straight to an endpoint (`XpEndpoint.handleEvent`) and the answers it
// gives, opened: what the endpoint tests that inject events below the relay share.
import { type Identity, openEvent, sealEvent, type XpEvent } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import type { InboundOutcome } from '../../src/index.js';

const backends = { signatures: nodeSignatures, cipher: nodeCipher };

/** A request of `kind` from `client`, sealed to `adapter`, created now and valid for 30 s. */
export function sealedRequest(kind: string, payload: unknown, client: Identity, adapter: Identity): XpEvent {
  const now = Math.floor(Date.now() / 1000);
  return sealEvent({ kind, payload, created_at: now, expiration: now + 30 }, client, adapter.keys, backends);
}

/** The kind and opened payload of the answer in `outcome`; throws when there was none. */
export function openedAnswer(
  outcome: InboundOutcome,
  client: Identity,
): { kind: string; payload: Record<string, unknown> } {
  if (outcome.action !== 'answered') throw new Error(`not answered: ${JSON.stringify(outcome)}`);
  const opened = openEvent(outcome.answer, client, backends);
  return { kind: outcome.answer.kind, payload: JSON.parse(opened.plaintext) };
}
