/**
 * Client → relay messages (docs/protocol.md §9): `EVENT`, `REQ`, `CLOSE`, `AUTH`. The builders are
 * the only way this project writes such a frame; the parser is the only way it reads one.
 * @module
 */
import { _frameHead, _unknownType } from './_json-frame.js';
import type { Filter } from './filter.js';
import { subscriptionIdProblem } from './subscription-id.js';

/** The client message types. */
export const CLIENT_MESSAGE_TYPES = Object.freeze(['EVENT', 'REQ', 'CLOSE', 'AUTH'] as const);

/**
 * A client message whose frame is well formed. `EVENT` and `AUTH` carry the raw, unverified event
 * (the relay checks it and answers `OK`); `REQ` carries the raw filters (the relay parses them
 * with its own limits, see {@link parseFilter}).
 */
export type ClientMessage =
  | { type: 'EVENT'; event: unknown }
  | { type: 'REQ'; subscriptionId: string; filters: unknown[] }
  | { type: 'CLOSE'; subscriptionId: string }
  | { type: 'AUTH'; event: unknown };

/** A parse result: a message, or a reason (with its `invalid:` prefix) saying what was wrong. */
export type ClientMessageParse = { ok: true; message: ClientMessage } | { ok: false; reason: string };

/**
 * Parses one text frame from a client. Never throws: any input is a message or a reason.
 * @example
 * parseClientMessage('["CLOSE","sub1"]'); // { ok: true, message: { type: 'CLOSE', subscriptionId: 'sub1' } }
 */
export function parseClientMessage(text: string): ClientMessageParse {
  const head = _frameHead(text, CLIENT_MESSAGE_TYPES);
  if (!head.ok) return head;
  const { type, rest } = head;
  switch (type) {
    case 'EVENT':
    case 'AUTH':
      if (rest.length !== 1) return _refuse(`${type} takes 1 argument, got ${rest.length}`);
      return { ok: true, message: { type, event: rest[0] } };
    case 'REQ': {
      const problem = subscriptionIdProblem(rest[0]);
      if (problem) return _refuse(problem);
      if (rest.length < 2) return _refuse('REQ needs at least one filter');
      return { ok: true, message: { type, subscriptionId: rest[0] as string, filters: rest.slice(1) } };
    }
    case 'CLOSE': {
      const problem = subscriptionIdProblem(rest[0]);
      if (problem) return _refuse(problem);
      if (rest.length !== 1) return _refuse(`CLOSE takes 1 argument, got ${rest.length}`);
      return { ok: true, message: { type, subscriptionId: rest[0] as string } };
    }
    default:
      return _unknownType(type, CLIENT_MESSAGE_TYPES);
  }
}

/**
 * Client → relay frames, serialized.
 * @example
 * clientMessage.req('sub1', [{ kinds: ['xp.endpoint.announce'] }]); // '["REQ","sub1",{"kinds":["xp.endpoint.announce"]}]'
 */
export const clientMessage = Object.freeze({
  /** `["EVENT", event]`: publish an event. */
  event: (event: unknown): string => JSON.stringify(['EVENT', event]),
  /** `["REQ", sub_id, filter, …]`: subscribe (at least one filter). */
  req: (subscriptionId: string, filters: readonly Filter[]): string => {
    const problem = subscriptionIdProblem(subscriptionId);
    if (problem) throw new RangeError(problem);
    if (filters.length === 0) throw new RangeError('a REQ needs at least one filter, got none');
    return JSON.stringify(['REQ', subscriptionId, ...filters]);
  },
  /** `["CLOSE", sub_id]`: end a subscription. */
  close: (subscriptionId: string): string => {
    const problem = subscriptionIdProblem(subscriptionId);
    if (problem) throw new RangeError(problem);
    return JSON.stringify(['CLOSE', subscriptionId]);
  },
  /** `["AUTH", event]`: answer a relay's challenge with a signed event. */
  auth: (event: unknown): string => JSON.stringify(['AUTH', event]),
});

function _refuse(message: string): { ok: false; reason: string } {
  return { ok: false, reason: `invalid: ${message}` };
}
