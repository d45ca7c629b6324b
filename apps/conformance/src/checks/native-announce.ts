/**
 * Native profile: the endpoint's `xp.endpoint.announce` is signed by its key, names the
 * encryption key the suite seals to, and its `counts` are honest about the catalog it serves
 * (docs/protocol.md §10.3): `schemas` the contracts, `tools` and `prompts` those of each sort, and
 * `low_quality_schemas` the length of its list; and every contract publishes its description
 * quality score.
 * @module
 */
import { getTag } from '@xprotocol/crypto';
import { type Check, show } from '../check.js';
import { isToolContract } from '../native-probe.js';
import { verifies } from '../xp-client.js';

export const nativeAnnounce: Check = {
  name: 'native-announce',
  number: 15,
  title: 'Native: a signed announce whose counts match the scored catalog',
  async run(context) {
    const { target } = context;
    const announce = await context.facts.announce();
    const sent = `a subscription to xp.endpoint.announce by ${target.adapter.ed25519}`;
    if (
      !context.expect(
        announce !== undefined && verifies(announce) && announce.pubkey === target.adapter.ed25519,
        {
          what: 'the endpoint publishes a signed announce',
          sent,
          received: show(announce),
          expected: "an xp.endpoint.announce signed by the endpoint's key",
        },
      )
    ) {
      return;
    }
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(announce!.content) as Record<string, unknown>;
    } catch (error) {
      context.fail({
        what: 'the announce is JSON',
        sent,
        received: (error as Error).message,
        expected: 'a JSON object',
      });
      return;
    }
    context.expect(
      payload.x25519 === target.adapter.x25519 && getTag(announce!, 'x25519') === payload.x25519,
      {
        what: 'the announce names one encryption key, in its payload and its x25519 tag',
        sent,
        received: `payload ${show(payload.x25519)}, tag ${show(getTag(announce!, 'x25519'))}`,
        expected: 'the same x25519: key in both',
      },
    );
    context.expect(Array.isArray(payload.mcp_sources) && Array.isArray(payload.xprotocol_sources), {
      what: 'the announce has its source lists',
      sent,
      received: `mcp_sources ${show(payload.mcp_sources)}, xprotocol_sources ${show(payload.xprotocol_sources)}`,
      expected: 'two arrays (empty for an endpoint that wraps no MCP server and calls no endpoint)',
    });
    const catalog = await context.facts.catalog();
    const prompts = catalog.filter((c) => {
      const source = c.source as Record<string, unknown> | undefined;
      return typeof source === 'object' && source !== null && 'mcp_prompt' in source;
    }).length;
    const expected = {
      schemas: catalog.length,
      tools: catalog.filter(isToolContract).length,
      prompts,
      low_quality_schemas: Array.isArray(payload.low_quality_schemas)
        ? payload.low_quality_schemas.length
        : -1,
    };
    const counts = (payload.counts ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(expected)) {
      context.expect(counts[name] === value, {
        what: `counts.${name} is honest`,
        sent: `${sent}, and xp.schema.catalog`,
        received: `counts.${name} ${show(counts[name])}`,
        expected: `${value} (${name === 'low_quality_schemas' ? 'the length of low_quality_schemas' : `the ${name === 'schemas' ? 'contracts' : name} the catalog lists`})`,
      });
    }
    // Every schema publishes its description quality score (the spec's MUST 4).
    for (const contract of catalog) {
      const score = (contract.semantic as { description_quality_score?: unknown } | undefined)
        ?.description_quality_score;
      context.expect(typeof score === 'number' && score >= 0 && score <= 1, {
        what: `${String(contract.kind)} publishes its description quality score`,
        sent: 'xp.schema.catalog',
        received: `semantic.description_quality_score ${show(score)}`,
        expected: 'a number from 0 to 1',
      });
    }
    if (Array.isArray(payload.served_sources))
      context.note(`served_sources: ${show(payload.served_sources)}`);
    context.note(`counts ${show(counts)} match the catalog of ${catalog.length} contracts`);
  },
};
