/**
 * Which `xp.key.rotate` events a caller follows (docs/protocol.md §11.8, "On relays" and "Who
 * follows, and when"): only a valid rotation whose `old_key` is both the key asked about and the
 * event's signer counts; among several, the latest `created_at` wins, the smallest id breaking a
 * tie. Events are real signed events made with `@xprotocol/crypto`.
 */
import {
  canonicalJson,
  createEventTemplate,
  generateIdentity,
  type Identity,
  type Rotation,
  signEvent,
  signRotation,
} from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { describe, expect, it } from 'vitest';
import { newestRotation } from '../src/caller/key-rotation.js';

const T0 = 1_780_000_000;
const old = generateIdentity();
const successor = generateIdentity();
const later = generateIdentity();
const outsider = generateIdentity();

const rotation = (to: Identity, createdAt = T0, from: Identity = old) =>
  signRotation(
    { created_at: createdAt, grace_until: createdAt + 3600 },
    from.ed25519.secretKey,
    to.ed25519.secretKey,
  );

function event(content: string, signer: Identity = old) {
  return signEvent(
    createEventTemplate({
      kind: 'xp.key.rotate',
      content,
      tags: [],
      created_at: T0,
      expiration: T0 + 86_400,
    }),
    signer.ed25519.secretKey,
    nodeSignatures,
  );
}

const rotationEvent = (r: Rotation, signer: Identity = old) => event(canonicalJson(r), signer);

describe('newestRotation', () => {
  it('finds the rotation of the key among its events', () => {
    const r = rotation(successor);
    expect(newestRotation([rotationEvent(r)], old.keys.ed25519, nodeSignatures)).toEqual(r);
  });

  it('ignores what does not count: not JSON, an invalid rotation, another signer, another old key', () => {
    const r = rotation(successor);
    const events = [
      event('not json'),
      rotationEvent({ ...r, successor_sig: r.sig }),
      // An outsider republishing the old key's rotation is not the old key speaking.
      rotationEvent(r, outsider),
      // The outsider's own rotation, asked about the old key.
      rotationEvent(rotation(successor, T0, outsider), outsider),
    ];
    expect(newestRotation(events, old.keys.ed25519, nodeSignatures)).toBeUndefined();
  });

  it('takes the latest created_at, then the smallest id', () => {
    const first = rotation(successor, T0);
    const second = rotation(later, T0 + 60);
    expect(
      newestRotation([rotationEvent(second), rotationEvent(first)], old.keys.ed25519, nodeSignatures),
    ).toEqual(second);
    const tie = [rotation(successor, T0 + 60), second];
    const smallest = [...tie].sort((a, b) => (a.id < b.id ? -1 : 1))[0];
    expect(
      newestRotation(
        tie.map((r) => rotationEvent(r)),
        old.keys.ed25519,
        nodeSignatures,
      ),
    ).toEqual(smallest);
  });
});
