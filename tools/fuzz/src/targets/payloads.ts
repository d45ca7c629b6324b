/**
 * The decrypted payloads an endpoint and a face read (`@xprotocol/wire`): `xp.mcp.request`, the
 * MCP session context, session messages, `xp.error`. Any JSON is read or refused with a reason.
 * @module
 */

import {
  parseMcpRequestPayload,
  parseMcpSessionContext,
  parseMcpSessionEnd,
  parseMcpSessionMessage,
  parseXpErrorPayload,
} from '@xprotocol/wire';
import fc from 'fast-check';
import { anyJson } from '../arbitraries.js';
import { type FuzzTarget, rule } from '../target.js';

const PARSERS = [
  ['xp.mcp.request', parseMcpRequestPayload],
  ['mcp session context', parseMcpSessionContext],
  ['mcp session message', parseMcpSessionMessage],
  ['mcp session end', parseMcpSessionEnd],
  ['xp.error', parseXpErrorPayload],
] as const;

export const payloads: FuzzTarget = {
  name: 'payloads',
  rule: 'every decrypted payload is read or refused with a reason; reading never throws',
  weight: 15,
  async open() {
    const field = fc.constantFrom(
      'method',
      'params',
      'session',
      'capabilities',
      'clientInfo',
      'progress',
      'code',
      'message',
      'details',
      'retry_after',
    );
    const shaped = fc.dictionary(
      field,
      fc.oneof(anyJson, fc.constantFrom('resources/read', 'a'.repeat(32), 'RATE_LIMITED')),
      { maxKeys: 5 },
    );
    return {
      arbitrary: fc.tuple(fc.nat({ max: PARSERS.length - 1 }), fc.oneof(anyJson, shaped)),
      check: ([which, value]: [number, unknown]) => {
        const [name, parse] = PARSERS[which]!;
        const parsed = (parse as (v: unknown) => { ok: boolean; reason?: string })(value);
        rule(typeof parsed.ok === 'boolean', `${name}: no verdict`);
        if (!parsed.ok)
          rule(
            typeof parsed.reason === 'string' && parsed.reason.length > 0,
            `${name}: refused without a reason`,
          );
      },
    };
  },
};
