/**
 * Which key of an XProtocol source configured by key the face fetches from and calls, when the
 * relays hold a rotation of that key (docs/protocol.md §11.8): the new key once its announce is on
 * the relays; within the grace period, while the new key has no announce yet, still the old one;
 * after the grace period, none (the source lists and calls nothing). The same rule as
 * `xprotocol-adapter call`, made at every catalog fetch.
 * @module
 */
import { type Rotation, rotationInGrace } from '@xprotocol/crypto';
import type { XpCaller } from '../caller/xp-caller.js';

/** Longest wait for the relays' stored rotations of a key, and for the new key's announce, in ms. */
const ROTATION_LOOKUP_MS = 5000;

/** Where the face goes for a source whose configured key may have been rotated. */
export type _RotatedKey =
  /** No rotation: the configured key. */
  | { readonly kind: 'unrotated'; readonly key: string }
  /** The new key, whose announce is on the relays. */
  | { readonly kind: 'followed'; readonly key: string; readonly rotation: Rotation; readonly notice: string }
  /** Still the old key, until `rotation.grace_until`: the new key has no announce yet. */
  | { readonly kind: 'in_grace'; readonly key: string; readonly rotation: Rotation; readonly notice: string }
  /** Nothing: the grace period ended and the new key has no announce. */
  | { readonly kind: 'ended'; readonly rotation: Rotation; readonly notice: string };

/**
 * Looks for a rotation of `configured` on the caller's relays and says which key to use now.
 * `name` names the source in the notices.
 */
export async function _rotatedKey(
  caller: XpCaller,
  name: string,
  configured: string,
  timeoutMs: number,
  nowSeconds: () => number,
): Promise<_RotatedKey> {
  const rotation = await caller.findRotation(configured, Math.min(timeoutMs, ROTATION_LOOKUP_MS));
  if (rotation === undefined) return { kind: 'unrotated', key: configured };
  const rotated = `the key of xprotocol source ${name}, ${configured}, was rotated to ${rotation.new_key} (rotation ${rotation.id.slice(0, 8)}…, grace until ${rotation.grace_until})`;
  const update = `update xprotocol_sources[].key to ${rotation.new_key}`;
  try {
    await caller.resolve(rotation.new_key, Math.min(timeoutMs, ROTATION_LOOKUP_MS));
    return {
      kind: 'followed',
      key: rotation.new_key,
      rotation,
      notice: `${rotated}: calling ${rotation.new_key}; ${update}`,
    };
  } catch {
    // No announce of the new key (yet): the grace period decides.
  }
  if (!rotationInGrace(rotation, nowSeconds())) {
    return {
      kind: 'ended',
      rotation,
      notice: `${rotated}, its grace period ended, and there is no announce of ${rotation.new_key} on the relays: nothing of this source is listed or called; start the new key's endpoint, or ${update}`,
    };
  }
  return {
    kind: 'in_grace',
    key: configured,
    rotation,
    notice: `${rotated}, but there is no announce of ${rotation.new_key} on the relays: still calling the old key until its grace period ends; ${update}`,
  };
}
