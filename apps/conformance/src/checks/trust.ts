/**
 * Test 9: trust disclosure. The adapter's `xp.endpoint.announce` is signed by its key and lists
 * the MCP servers it wraps (`mcp_sources`), each with its name and namespace.
 * @module
 */
import { type Check, show } from '../check.js';
import { RATE_NAMESPACE, TEST_NAMESPACE } from '../test-tools.js';
import { verifies } from '../xp-client.js';

export const trust: Check = {
  name: 'trust-disclosure',
  number: 9,
  title: 'Trust disclosure: xp.endpoint.announce includes mcp_sources',
  async run(context) {
    const { target } = context;
    const announce = await context.facts.announce();
    const sent = `a subscription to xp.endpoint.announce by ${target.adapter.ed25519}`;
    if (
      !context.expect(
        announce !== undefined && verifies(announce) && announce.pubkey === target.adapter.ed25519,
        {
          what: 'the adapter publishes a signed announce',
          sent,
          received: show(announce),
          expected: 'an xp.endpoint.announce signed by the adapter key',
        },
      )
    ) {
      return;
    }
    let payload: { mcp_sources?: unknown } | undefined;
    try {
      payload = JSON.parse(announce!.content) as typeof payload;
    } catch {
      payload = undefined;
    }
    const sources = payload?.mcp_sources;
    const list = Array.isArray(sources) ? (sources as { name?: unknown; namespace?: unknown }[]) : [];
    for (const [name, namespace] of [
      ['conf-test', TEST_NAMESPACE],
      ['conf-rate', RATE_NAMESPACE],
    ]) {
      context.expect(
        list.some((s) => s.name === name && s.namespace === namespace),
        {
          what: `mcp_sources discloses ${name}`,
          sent,
          received: show(sources),
          expected: `mcp_sources with {name: "${name}", namespace: "${namespace}", …}`,
        },
      );
    }
    context.note(`mcp_sources: ${show(list.map((s) => s.name))}`);
  },
};
