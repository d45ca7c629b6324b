/**
 * `revoke --relay URL` and `rotate --relay URL`: a signed key object put on relays as a public
 * event signed by its signer, its content the object in canonical JSON — a revocation as
 * `xp.key.revoke` (docs/protocol.md §11.2, "On relays"), so that running endpoints subscribed to
 * the revoker's key refuse the revoked delegation from their next call on; a rotation as
 * `xp.key.rotate` (§11.8), so that callers of the old key find its successor. Each relay is asked
 * on its own connection and answers for itself.
 * @module
 */
import {
  canonicalJson,
  createEventTemplate,
  nodeSignatures,
  type Revocation,
  type Rotation,
  signEvent,
} from '@xprotocol/crypto/node';
import { RelayClientError, RelayPool } from '@xprotocol/relay-client';
import { REVOKE_KIND, ROTATE_KIND } from '@xprotocol/wire';

/** How long one relay has to take the event, in ms. */
const PUBLISH_TIMEOUT_MS = 10_000;

/** What one relay did with the event. */
export interface RevocationPublished {
  relay: string;
  ok: boolean;
  /** Why it did not take it (with `ok: false`). */
  reason?: string;
}

/**
 * Signs the `xp.key.revoke` event for `revocation` with the revoker's secret key and publishes it
 * to each relay. It expires at `expiration` (unix seconds): a relay keeps it until then, or as
 * long as its own limit allows. Never rejects; each relay's outcome is in the result.
 */
export function publishRevocation(
  revocation: Revocation,
  secretKey: Uint8Array,
  relays: readonly string[],
  expiration: number,
): Promise<RevocationPublished[]> {
  return _publishObject(REVOKE_KIND, revocation, secretKey, relays, expiration);
}

/**
 * Signs the `xp.key.rotate` event for `rotation` with the old key's secret key and publishes it
 * to each relay, as {@link publishRevocation} does.
 */
export function publishRotation(
  rotation: Rotation,
  oldSecretKey: Uint8Array,
  relays: readonly string[],
  expiration: number,
): Promise<RevocationPublished[]> {
  return _publishObject(ROTATE_KIND, rotation, oldSecretKey, relays, expiration);
}

async function _publishObject(
  kind: string,
  object: Revocation | Rotation,
  secretKey: Uint8Array,
  relays: readonly string[],
  expiration: number,
): Promise<RevocationPublished[]> {
  const event = signEvent(
    createEventTemplate({
      kind,
      content: canonicalJson(object),
      tags: [],
      created_at: Math.floor(Date.now() / 1000),
      expiration,
    }),
    secretKey,
    nodeSignatures,
  );
  return Promise.all(
    [...new Set(relays)].map(async (relay): Promise<RevocationPublished> => {
      const pool = await RelayPool.open({ urls: [relay], reconnect: { initialMs: 250, maxMs: 2000 } });
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        await pool.connect(PUBLISH_TIMEOUT_MS);
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${PUBLISH_TIMEOUT_MS / 1000} s`)),
            PUBLISH_TIMEOUT_MS,
          );
        });
        await Promise.race([pool.publish(event, { durable: false }), timeout]);
        return { relay, ok: true };
      } catch (error) {
        const reason =
          error instanceof RelayClientError
            ? (error.reasons[relay] ?? error.message)
            : (error as Error).message;
        return { relay, ok: false, reason };
      } finally {
        clearTimeout(timer);
        await pool.close();
      }
    }),
  );
}
