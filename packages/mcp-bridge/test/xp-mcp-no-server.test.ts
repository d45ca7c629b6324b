// `xp.mcp.request` for something no wrapped server offers (docs/protocol.md §10.4, "Errors"): the
// answer is the MCP "method not found" (-32601 in details.mcp_error), granted or not — never an
// empty listing, which would tell a client that the servers offer the feature and hold nothing.
// Real pieces: a relay on loopback and the official filesystem server, which offers tools only.
import type { XpEvent } from '@xprotocol/crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboundOutcome } from '../src/index.js';
import { openedAnswer, sealedRequest } from './support/sealed-requests.js';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

function request(s: Stack, payload: unknown): XpEvent {
  return sealedRequest('xp.mcp.request', payload, s.client, s.adapter);
}

function answerOf(s: Stack, outcome: InboundOutcome): { kind: string; payload: Record<string, unknown> } {
  return openedAnswer(outcome, s.client);
}

describe('xp.mcp.request for a feature no wrapped server offers', () => {
  for (const [who, grants] of [
    ['a caller without the capability', ['com.test.fs.read']],
    ['a caller holding every MCP capability of the source', ['fs.mcp.*']],
  ] as const) {
    it(`answers resources/list, resources/templates/list and prompts/list with -32601 (${who})`, async () => {
      stack = await startStack({ grants: [...grants] });
      const s = stack;
      for (const [method, feature] of [
        ['resources/list', 'resources'],
        ['resources/templates/list', 'resources'],
        ['prompts/list', 'prompts'],
      ] as const) {
        const answer = answerOf(s, await s.endpoint.handleEvent(request(s, { method })));
        expect(answer, method).toMatchObject({
          kind: 'xp.error',
          payload: {
            code: 'NOT_FOUND',
            details: { mcp_error: { code: -32601, message: expect.stringContaining(feature) } },
          },
        });
      }
      expect(s.upstreamCalls()).toBe(0);
    }, 60_000);
  }
});
