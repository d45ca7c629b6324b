/**
 * Relay frames and filters as the relay and its clients parse them (`@xprotocol/wire`): any text
 * is either a frame or refused with a reason; parsing never throws.
 * @module
 */

import {
  CLIENT_MESSAGE_TYPES,
  parseClientMessage,
  parseFilter,
  parseRelayMessage,
  RELAY_MESSAGE_TYPES,
} from '@xprotocol/wire';
import fc from 'fast-check';
import { anyJson, frame } from '../arbitraries.js';
import { type FuzzTarget, rule } from '../target.js';

/** A parse verdict follows the rule: a frame, or a refusal with a reason. */
function _verdict(parsed: { ok: boolean; reason?: unknown }, what: string): void {
  rule(typeof parsed.ok === 'boolean', `${what}: no verdict`);
  if (!parsed.ok)
    rule(typeof parsed.reason === 'string' && parsed.reason.length > 0, `${what}: refused without a reason`);
}

export const clientFrames: FuzzTarget<string> = {
  name: 'client-frames',
  rule: 'every client frame (EVENT, REQ, CLOSE, …) is parsed or refused with a reason; parsing never throws',
  weight: 25,
  async open() {
    return {
      arbitrary: frame(CLIENT_MESSAGE_TYPES),
      check: (text) => _verdict(parseClientMessage(text), 'client frame'),
    };
  },
};

export const relayFrames: FuzzTarget<string> = {
  name: 'relay-frames',
  rule: 'every relay frame (EVENT, OK, EOSE, CLOSED, NOTICE) is parsed or refused with a reason',
  weight: 15,
  async open() {
    return {
      arbitrary: frame(RELAY_MESSAGE_TYPES),
      check: (text) => _verdict(parseRelayMessage(text), 'relay frame'),
    };
  },
};

export const filters: FuzzTarget<unknown> = {
  name: 'filters',
  rule: 'every filter is accepted within its limits or refused with a reason',
  weight: 15,
  async open() {
    const field = fc.constantFrom(
      'ids',
      'authors',
      'kinds',
      '#e',
      '#p',
      'since',
      'until',
      'limit',
      'search',
      '#t',
    );
    const value = fc.oneof(
      anyJson,
      fc.array(fc.oneof(fc.string({ maxLength: 70 }), fc.integer()), { maxLength: 1200 }),
    );
    return {
      arbitrary: fc.oneof(anyJson, fc.dictionary(field, value, { maxKeys: 5 })),
      check: (input) => {
        const parsed = parseFilter(input, { maxValues: 1000, maxLimit: 500 });
        _verdict(parsed, 'filter');
        if (parsed.ok) {
          for (const [key, values] of Object.entries(parsed.filter)) {
            if (Array.isArray(values))
              rule(values.length <= 1000, `filter: ${key} kept ${values.length} values`);
          }
          rule((parsed.filter.limit ?? 0) <= 500, 'filter: limit above the maximum');
        }
      },
    };
  },
};
