/**
 * The relay protocol's messages (docs/protocol.md §9): NIP-01 style JSON arrays over WebSocket.
 * Client → relay: `EVENT`, `REQ`, `CLOSE`. Relay → client: `EVENT`, `OK`, `EOSE`, `CLOSED`,
 * `NOTICE`. Refusal reasons start with a machine-readable prefix.
 * @module
 */
import { _typeName } from './filter.js';

/** Reason prefixes on `OK false`, `CLOSED` and `NOTICE`. */
export type ReasonPrefix = 'invalid' | 'duplicate' | 'rate-limited' | 'restricted' | 'too-large' | 'error';

/** Builds a `prefix: message` reason string. */
export function reason(prefix: ReasonPrefix, message: string): string {
  return `${prefix}: ${message}`;
}

/** A client message after framing checks; `EVENT` carries the raw (unverified) event value. */
export type ClientMessage =
  | { type: 'EVENT'; event: unknown }
  | { type: 'REQ'; subscriptionId: string; filters: unknown[] }
  | { type: 'CLOSE'; subscriptionId: string };

/** A parse result: a message, or a NOTICE-worthy description of what was wrong. */
export type ClientMessageParse = { ok: true; message: ClientMessage } | { ok: false; reason: string };

/** Longest subscription id accepted (NIP-01 uses 64). */
export const MAX_SUBSCRIPTION_ID_LENGTH = 64;

function subscriptionIdProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_SUBSCRIPTION_ID_LENGTH) {
    return `a subscription id must be a string of 1 to ${MAX_SUBSCRIPTION_ID_LENGTH} characters, got ${_typeName(value)}`;
  }
  return undefined;
}

/** Parses one text frame from a client. Never throws. */
export function parseClientMessage(text: string): ClientMessageParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: reason('invalid', 'message is not valid JSON') };
  }
  if (!Array.isArray(value) || typeof value[0] !== 'string') {
    return {
      ok: false,
      reason: reason('invalid', 'expected a JSON array whose first element is "EVENT", "REQ" or "CLOSE"'),
    };
  }
  const [type, ...rest] = value as [string, ...unknown[]];
  switch (type) {
    case 'EVENT':
      if (rest.length !== 1)
        return { ok: false, reason: reason('invalid', `EVENT takes 1 argument, got ${rest.length}`) };
      return { ok: true, message: { type, event: rest[0] } };
    case 'REQ': {
      const problem = subscriptionIdProblem(rest[0]);
      if (problem) return { ok: false, reason: reason('invalid', problem) };
      if (rest.length < 2) return { ok: false, reason: reason('invalid', 'REQ needs at least one filter') };
      return { ok: true, message: { type, subscriptionId: rest[0] as string, filters: rest.slice(1) } };
    }
    case 'CLOSE': {
      const problem = subscriptionIdProblem(rest[0]);
      if (problem || rest.length !== 1) {
        return {
          ok: false,
          reason: reason('invalid', problem ?? `CLOSE takes 1 argument, got ${rest.length}`),
        };
      }
      return { ok: true, message: { type, subscriptionId: rest[0] as string } };
    }
    default:
      return {
        ok: false,
        reason: reason(
          'invalid',
          `unknown message type ${JSON.stringify(type)}; expected "EVENT", "REQ" or "CLOSE"`,
        ),
      };
  }
}

/** Relay → client frames, serialized. */
export const relayMessage = {
  event: (subscriptionId: string, event: unknown) => JSON.stringify(['EVENT', subscriptionId, event]),
  ok: (eventId: string, accepted: boolean, message: string) =>
    JSON.stringify(['OK', eventId, accepted, message]),
  eose: (subscriptionId: string) => JSON.stringify(['EOSE', subscriptionId]),
  closed: (subscriptionId: string, message: string) => JSON.stringify(['CLOSED', subscriptionId, message]),
  notice: (message: string) => JSON.stringify(['NOTICE', message]),
} as const;
