/**
 * Subscription ids: 1 to 64 characters, chosen by the client, echoed by the relay.
 * @module
 */
import { _typeName } from './_type-name.js';

/** Longest subscription id accepted (NIP-01 uses 64). */
export const MAX_SUBSCRIPTION_ID_LENGTH = 64;

/** Why `value` is not a subscription id, or `undefined` when it is one. */
export function subscriptionIdProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_SUBSCRIPTION_ID_LENGTH) {
    const got = typeof value === 'string' ? `${value.length} characters` : _typeName(value);
    return `a subscription id must be a string of 1 to ${MAX_SUBSCRIPTION_ID_LENGTH} characters, got ${got}`;
  }
  return undefined;
}
