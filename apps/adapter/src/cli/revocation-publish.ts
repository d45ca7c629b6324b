/**
 * `revoke --relay URL`: a revocation put on relays (docs/protocol.md §11.2, "On relays") as a
 * public `xp.key.revoke` event signed by the revoker, its content the revocation object, so that
 * running endpoints subscribed to the revoker's key refuse the revoked delegation from their next
 * call on. Each relay is asked on its own connection and answers for itself.
 * @module
 */
import {
  canonicalJson,
  createEventTemplate,
  nodeSignatures,
  type Revocation,
  signEvent,
} from '@xprotocol/crypto/node';
import { RelayClientError, RelayPool } from '@xprotocol/relay-client';
import { REVOKE_KIND } from '@xprotocol/wire';

/** How long one relay has to take the event, in ms. */
const PUBLISH_TIMEOUT_MS = 10_000;

/** What one relay did with the revocation event. */
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
export async function publishRevocation(
  revocation: Revocation,
  secretKey: Uint8Array,
  relays: readonly string[],
  expiration: number,
): Promise<RevocationPublished[]> {
  const event = signEvent(
    createEventTemplate({
      kind: REVOKE_KIND,
      content: canonicalJson(revocation),
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
