/**
 * Test 4: `xp.schema.describe` returns ranked matches for intent queries, and ranks the right
 * tool first for a set of intents.
 * @module
 */
import { type Check, show } from '../check.js';
import { TEST_TOOLS } from '../test-tools.js';
import { received, toolOf } from './_answers.js';

export const describe: Check = {
  name: 'describe',
  number: 4,
  title: 'xp.schema.describe returns ranked matches for intent queries',
  async run(context) {
    const { target } = context;
    const cases = TEST_TOOLS.filter((t) => t.intent !== undefined);
    const exchanges = await Promise.all(
      cases.map((tool) =>
        target.xp.call(target.keys.client, target.adapter, 'xp.schema.describe', {
          intent: tool.intent,
          limit: 5,
        }),
      ),
    );
    cases.forEach((tool, i) => {
      const exchange = exchanges[i]!;
      const sent = `xp.schema.describe ${show({ intent: tool.intent, limit: 5 })}`;
      const matches = (exchange.payload as { matches?: unknown } | undefined)?.matches;
      if (
        !context.expect(exchange.answer?.kind === 'xp.schema.describe.result' && Array.isArray(matches), {
          what: `describe answers "${tool.intent}"`,
          sent,
          received: received(exchange),
          expected: 'xp.schema.describe.result with a matches list',
        })
      ) {
        return;
      }
      const list = matches as { kind?: unknown; relevance?: unknown; use_when?: unknown }[];
      context.expect(toolOf(list[0]?.kind) === tool.name, {
        what: `the best match for "${tool.intent}"`,
        sent,
        received: show(list.map((m) => m.kind)),
        expected: `a kind for ${tool.name} first`,
      });
      const relevances = list.map((m) => m.relevance);
      const ranked =
        relevances.every((r) => typeof r === 'number') &&
        relevances.every((r, j) => j === 0 || (r as number) <= (relevances[j - 1] as number));
      context.expect(ranked, {
        what: `matches for "${tool.intent}" are ranked`,
        sent,
        received: show(relevances),
        expected: 'numeric relevance scores, highest first',
      });
      context.expect(
        list.every((m) => typeof m.use_when === 'string'),
        {
          what: `matches for "${tool.intent}" carry use_when excerpts`,
          sent,
          received: show(list),
          expected: 'use_when on every match',
        },
      );
    });
    context.note(`${cases.length} intents, each answered with the right tool first`);
  },
};
