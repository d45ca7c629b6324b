/**
 * Test 10: bidirectionality. At the same time, an MCP client calls the suite's peer endpoint
 * through the adapter's MCP face (Direction 2) while an XProtocol client calls the wrapped test
 * server through the adapter (Direction 1). The MCP face must also show the peer's contracts as
 * MCP tools (name with the configured prefix, input schema = the contract's payload).
 * @module
 */
import { type Check, show } from '../check.js';
import { PEER_PREFIX } from '../peer-endpoint.js';
import { TEST_NAMESPACE } from '../test-tools.js';
import { marker, received } from './_answers.js';

export const bidirectional: Check = {
  name: 'bidirectional',
  number: 10,
  title: 'Bidirectionality: both directions work simultaneously',
  async run(context) {
    const { target } = context;
    const mcp = await target.mcp();
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
    const { tools } = await mcp!.listTools();
    const echo = tools.find((t) => t.name === `${PEER_PREFIX}echo`);
    context.expect(
      echo !== undefined &&
        JSON.stringify((echo.inputSchema as { properties?: unknown }).properties) ===
          JSON.stringify({ text: { type: 'string' } }),
      {
        what: "the peer endpoint's contract becomes an MCP tool",
        sent: 'tools/list on the MCP face',
        received: show(tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema }))),
        expected: `${PEER_PREFIX}echo with the contract's payload schema ({text: string})`,
      },
    );
    const mcpText = marker('mcp-to-xp');
    const xpTitle = marker('xp-to-mcp');
    const [mcpOutcome, xpOutcome] = await Promise.all([
      mcp!.callTool({ name: `${PEER_PREFIX}echo`, arguments: { text: mcpText } }).then(
        (r) => ({ ok: true as const, value: r }),
        (e: unknown) => ({ ok: false as const, value: e }),
      ),
      target.xp.call(target.keys.client, target.adapter, `${TEST_NAMESPACE}.read_note`, { title: xpTitle }),
    ]);
    context.expect(
      mcpOutcome.ok &&
        show(mcpOutcome.value).includes(mcpText) &&
        target.peer.calls.some((c) => show(c.payload).includes(mcpText)),
      {
        what: 'Direction 2: an MCP client reaches the XProtocol peer through the adapter',
        sent: `tools/call ${PEER_PREFIX}echo {text: "${mcpText}"}`,
        received: `${show(mcpOutcome.value)}; the peer received ${target.peer.calls.length} calls`,
        expected: 'the echoed text, and the peer saw the call',
      },
    );
    context.expect(
      xpOutcome.answer?.kind === `${TEST_NAMESPACE}.read_note.result` && target.reached(xpTitle) !== false,
      {
        what: 'Direction 1 at the same time: an XProtocol client reaches the wrapped MCP server',
        sent: `${TEST_NAMESPACE}.read_note {title: "${xpTitle}"}`,
        received: received(xpOutcome),
        expected: `${TEST_NAMESPACE}.read_note.result, and the test server recorded the call`,
      },
    );
    context.note('an MCP→XP call and an XP→MCP call ran through one adapter at once');
  },
};
