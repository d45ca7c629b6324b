/**
 * Test 7: error translation. Direction 2: the suite's peer endpoint answers each XProtocol error
 * code and the adapter's MCP face must turn it into the MCP error of the spec's table (code and
 * message). Direction 1: the adapter answers unknown kinds, bad payloads, rate limits, expired
 * requests and upstream MCP errors with the matching `xp.error`.
 * @module
 */
import { type Check, type CheckContext, show } from '../check.js';
import { PEER_PREFIX } from '../peer-endpoint.js';
import { RATE_NAMESPACE, TEST_NAMESPACE, TEST_TOOLS, UPSTREAM_FAILURE_MESSAGE } from '../test-tools.js';
import { nowSeconds, sealRequest } from '../xp-client.js';
import { errorCode, marker, received } from './_answers.js';

/** The spec's table: XProtocol code → MCP (JSON-RPC) code and message. */
export const ERROR_TABLE = [
  { xp: 'AUTHORIZATION_INSUFFICIENT', mcp: -32600, message: 'Insufficient capability for this operation' },
  { xp: 'SCHEMA_VIOLATION', mcp: -32602, message: 'Request payload does not conform to schema' },
  { xp: 'EXPIRED', mcp: -32600, message: 'Event has expired' },
  { xp: 'REVOKED', mcp: -32600, message: 'Sender key has been revoked' },
  { xp: 'NOT_FOUND', mcp: -32600, message: 'Resource or schema not found' },
  { xp: 'RATE_LIMITED', mcp: -32600, message: 'Rate limit exceeded' },
  { xp: 'ENDPOINT_UNAVAILABLE', mcp: -32603, message: 'XProtocol endpoint unavailable' },
] as const;

async function _direction2(context: CheckContext): Promise<void> {
  const mcp = await context.target.mcp();
  if (
    !context.expect(mcp !== undefined, {
      what: 'the MCP face is reachable',
      sent: 'an MCP connection',
      received: 'no --mcp-url given',
      expected: "the adapter's MCP face (Streamable HTTP)",
    })
  ) {
    return;
  }
  const name = `${PEER_PREFIX}fail_with`;
  const rows = [
    ...ERROR_TABLE.map((row) => ({ ...row, sentMessage: `peer says ${row.xp}` })),
    {
      xp: 'UPSTREAM_ERROR',
      mcp: -32603,
      message: 'peer upstream failure 8812',
      sentMessage: 'peer upstream failure 8812',
    },
  ];
  for (const row of rows) {
    const args = { code: row.xp, message: row.sentMessage };
    const sent = `tools/call ${name} ${show(args)} (the peer answers xp.error ${row.xp})`;
    const outcome = await mcp!.callTool({ name, arguments: args }).then(
      (result) => ({ result, error: undefined as { code?: unknown; message?: unknown } | undefined }),
      (error: { code?: unknown; message?: unknown }) => ({ result: undefined, error }),
    );
    if (row.xp === 'SCHEMA_VIOLATION' && outcome.result?.isError === true) {
      // MCP itself prefers input errors as tool results the model can correct; accepted as a
      // variant when the result names the code and the spec's message.
      const text = show(outcome.result);
      context.expect(text.includes(row.message), {
        what: `${row.xp} as an isError tool result names the spec's message`,
        sent,
        received: text,
        expected: `"${row.message}"`,
      });
      context.note(`${row.xp} arrives as an isError tool result (variant of InvalidParams)`);
      continue;
    }
    context.expect(
      outcome.error !== undefined &&
        outcome.error.code === row.mcp &&
        String(outcome.error.message).includes(row.message),
      {
        what: `${row.xp} → MCP ${row.mcp}`,
        sent,
        received: outcome.error
          ? `error ${show(outcome.error.code)} ${show(outcome.error.message)}`
          : `a result ${show(outcome.result)}`,
        expected: `JSON-RPC error ${row.mcp} with the message "${row.message}"`,
      },
    );
  }
}

async function _direction1(context: CheckContext): Promise<void> {
  const { target } = context;
  const { client } = target.keys;
  const strict = TEST_TOOLS.find((t) => t.name === 'record_count')!;
  const before = target.readCalls()?.filter((c) => c.tool === 'record_count').length;
  const [unknown, invalid, upstream] = await Promise.all([
    target.xp.call(client, target.adapter, `${TEST_NAMESPACE}.no_such_tool`, {}),
    target.xp.call(client, target.adapter, `${TEST_NAMESPACE}.record_count`, strict.invalid),
    target.xp.call(client, target.adapter, `${TEST_NAMESPACE}.fail_upstream`, { reason: marker('upstream') }),
  ]);
  context.expect(errorCode(unknown) === 'NOT_FOUND', {
    what: 'an unknown kind',
    sent: `${TEST_NAMESPACE}.no_such_tool {}`,
    received: received(unknown),
    expected: 'xp.error NOT_FOUND',
  });
  context.expect(errorCode(invalid) === 'SCHEMA_VIOLATION', {
    what: 'a payload against the schema',
    sent: `${TEST_NAMESPACE}.record_count ${show(strict.invalid)}`,
    received: received(invalid),
    expected: 'xp.error SCHEMA_VIOLATION',
  });
  const after = target.readCalls()?.filter((c) => c.tool === 'record_count').length;
  context.expect(before === after, {
    what: 'a payload against the schema never reaches the MCP server',
    sent: `${TEST_NAMESPACE}.record_count ${show(strict.invalid)}`,
    received: `record_count calls recorded: ${before} before, ${after} after`,
    expected: 'no new call',
  });
  const message = String((upstream.payload as { message?: unknown } | undefined)?.message ?? '');
  context.expect(upstream.answer?.kind === 'xp.error' && message.includes(UPSTREAM_FAILURE_MESSAGE), {
    what: 'an upstream MCP error is forwarded',
    sent: `${TEST_NAMESPACE}.fail_upstream (the MCP server answers a JSON-RPC error)`,
    received: received(upstream),
    expected: `xp.error whose message contains "${UPSTREAM_FAILURE_MESSAGE}"`,
  });
  // Rate limit: the conf.rate source allows one request per minute.
  const rated: string[] = [];
  for (let i = 0; i < 3; i++) {
    const exchange = await target.xp.call(client, target.adapter, `${RATE_NAMESPACE}.read_note`, {
      title: marker('rate'),
    });
    rated.push(errorCode(exchange) ?? exchange.answer?.kind ?? 'no answer');
  }
  context.expect(rated.includes('RATE_LIMITED'), {
    what: 'a source over its rate limit',
    sent: `${RATE_NAMESPACE}.read_note three times (requests_per_minute: 1)`,
    received: show(rated),
    expected: 'xp.error RATE_LIMITED for a call beyond the limit',
  });
  // Expired: only the injector relay delivers an expired request (a relay refuses it).
  if (target.injector) {
    const now = nowSeconds();
    const title = marker('expired');
    const request = sealRequest(
      client,
      target.adapter,
      `${TEST_NAMESPACE}.read_note`,
      { title },
      {
        created_at: now - 10,
        expiration: now - 2,
      },
    );
    const expired = await target.xp.exchange(request, target.adapter.ed25519, client, {
      timeoutMs: 6000,
      injector: target.injector,
    });
    context.expect(errorCode(expired) === 'EXPIRED', {
      what: 'an expired request',
      sent: `${TEST_NAMESPACE}.read_note with expiration ${now - 2} (now ${now}), through the injector relay`,
      received: received(expired),
      expected: 'xp.error EXPIRED (docs/protocol.md §4, step 5)',
    });
  }
}

export const errors: Check = {
  name: 'errors',
  number: 7,
  title: 'Error translation: XProtocol errors map to the right MCP errors',
  async run(context) {
    await _direction1(context);
    await _direction2(context);
    context.note(
      'Direction 1: NOT_FOUND, SCHEMA_VIOLATION, RATE_LIMITED, EXPIRED, upstream error; Direction 2: all 8 rows',
    );
  },
};
