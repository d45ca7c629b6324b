/**
 * Relay → client messages (docs/protocol.md §9): `EVENT`, `OK`, `EOSE`, `CLOSED`, `NOTICE`,
 * `AUTH`. The builders are the only way this project writes such a frame; the parser is the only
 * way it reads one.
 * @module
 */
import { _frameHead, _unknownType } from './_json-frame.js';
import { _typeName } from './_type-name.js';
import { subscriptionIdProblem } from './subscription-id.js';

/** The relay message types. */
export const RELAY_MESSAGE_TYPES = Object.freeze([
  'EVENT',
  'OK',
  'EOSE',
  'CLOSED',
  'NOTICE',
  'AUTH',
] as const);

/** A relay message whose frame is well formed. `EVENT` carries the raw, unverified event. */
export type RelayMessage =
  | { type: 'EVENT'; subscriptionId: string; event: unknown }
  | { type: 'OK'; eventId: string; accepted: boolean; reason: string }
  | { type: 'EOSE'; subscriptionId: string }
  | { type: 'CLOSED'; subscriptionId: string; reason: string }
  | { type: 'NOTICE'; reason: string }
  | { type: 'AUTH'; challenge: string };

/** A parse result: a message, or a reason saying what was wrong. */
export type RelayMessageParse = { ok: true; message: RelayMessage } | { ok: false; reason: string };

/**
 * Parses one text frame from a relay. Never throws: any input is a message or a reason.
 * @example
 * parseRelayMessage('["EOSE","sub1"]'); // { ok: true, message: { type: 'EOSE', subscriptionId: 'sub1' } }
 */
export function parseRelayMessage(text: string): RelayMessageParse {
  const head = _frameHead(text, RELAY_MESSAGE_TYPES);
  if (!head.ok) return head;
  const { type, rest } = head;
  switch (type) {
    case 'EVENT': {
      const problem = subscriptionIdProblem(rest[0]) ?? _arity(type, rest, 2);
      if (problem) return _refuse(problem);
      return { ok: true, message: { type, subscriptionId: rest[0] as string, event: rest[1] } };
    }
    case 'OK': {
      const [eventId, accepted, why] = rest;
      const problem =
        _arity(type, rest, 3) ??
        (typeof eventId !== 'string'
          ? `OK: the event id must be a string, got ${_typeName(eventId)}`
          : undefined) ??
        (typeof accepted !== 'boolean'
          ? `OK: accepted must be a boolean, got ${_typeName(accepted)}`
          : undefined) ??
        (typeof why !== 'string' ? `OK: the reason must be a string, got ${_typeName(why)}` : undefined);
      if (problem) return _refuse(problem);
      return {
        ok: true,
        message: { type, eventId: eventId as string, accepted: accepted as boolean, reason: why as string },
      };
    }
    case 'EOSE': {
      const problem = subscriptionIdProblem(rest[0]) ?? _arity(type, rest, 1);
      if (problem) return _refuse(problem);
      return { ok: true, message: { type, subscriptionId: rest[0] as string } };
    }
    case 'CLOSED': {
      const problem =
        subscriptionIdProblem(rest[0]) ??
        _arity(type, rest, 2) ??
        (typeof rest[1] !== 'string'
          ? `CLOSED: the reason must be a string, got ${_typeName(rest[1])}`
          : undefined);
      if (problem) return _refuse(problem);
      return { ok: true, message: { type, subscriptionId: rest[0] as string, reason: rest[1] as string } };
    }
    case 'NOTICE':
    case 'AUTH': {
      const problem =
        _arity(type, rest, 1) ??
        (typeof rest[0] !== 'string' ? `${type} takes a string, got ${_typeName(rest[0])}` : undefined);
      if (problem) return _refuse(problem);
      return type === 'NOTICE'
        ? { ok: true, message: { type, reason: rest[0] as string } }
        : { ok: true, message: { type, challenge: rest[0] as string } };
    }
    default:
      return _unknownType(type, RELAY_MESSAGE_TYPES);
  }
}

/**
 * Relay → client frames, serialized.
 * @example
 * relayMessage.ok(id, false, reason('invalid', 'bad signature')); // '["OK","<id>",false,"invalid: bad signature"]'
 */
export const relayMessage = Object.freeze({
  /** `["EVENT", sub_id, event]`: an event for a subscription. */
  event: (subscriptionId: string, event: unknown): string => JSON.stringify(['EVENT', subscriptionId, event]),
  /**
   * `["EVENT", sub_id, event]` from the event's JSON text (`JSON.stringify(event)`), byte for byte
   * what {@link relayMessage}`.event` writes: a relay serializes an event once and frames it for
   * every subscription it matches.
   */
  eventJson: (subscriptionId: string, eventJson: string): string =>
    `["EVENT",${JSON.stringify(subscriptionId)},${eventJson}]`,
  /** `["OK", event_id, accepted, reason]`: the answer to every client `EVENT`. */
  ok: (eventId: string, accepted: boolean, why: string): string =>
    JSON.stringify(['OK', eventId, accepted, why]),
  /** `["EOSE", sub_id]`: stored events end, live ones follow. */
  eose: (subscriptionId: string): string => JSON.stringify(['EOSE', subscriptionId]),
  /** `["CLOSED", sub_id, reason]`: the relay ended or refused a subscription. */
  closed: (subscriptionId: string, why: string): string => JSON.stringify(['CLOSED', subscriptionId, why]),
  /** `["NOTICE", reason]`: a frame that was not a valid message. */
  notice: (why: string): string => JSON.stringify(['NOTICE', why]),
  /** `["AUTH", challenge]`: a challenge the client may answer with a signed `AUTH` event. */
  auth: (challenge: string): string => JSON.stringify(['AUTH', challenge]),
});

function _arity(type: string, rest: readonly unknown[], expected: number): string | undefined {
  return rest.length === expected
    ? undefined
    : `${type} takes ${expected} argument${expected === 1 ? '' : 's'}, got ${rest.length}`;
}

function _refuse(message: string): { ok: false; reason: string } {
  return { ok: false, reason: `invalid: ${message}` };
}
