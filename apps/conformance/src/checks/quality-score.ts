/**
 * Test 3: `description_quality_score` is computed and present on every schema, and a good
 * description scores above a poor one.
 * @module
 */
import { type Check, show } from '../check.js';
import { POOR_TOOL, TEST_NAMESPACE } from '../test-tools.js';

export const qualityScore: Check = {
  name: 'quality-score',
  number: 3,
  title: 'description_quality_score is computed and present on every schema',
  async run(context) {
    const contracts = await context.facts.catalog();
    context.expect(contracts.length > 0, {
      what: 'the catalog lists contracts',
      sent: 'xp.schema.catalog',
      received: '0 contracts',
      expected: 'the test server tools',
    });
    const scores = new Map<string, number>();
    for (const contract of contracts.filter((c) => String(c.kind).startsWith('conf.'))) {
      const score = (contract.semantic as { description_quality_score?: unknown } | undefined)
        ?.description_quality_score;
      const ok = typeof score === 'number' && score >= 0 && score <= 1;
      context.expect(ok, {
        what: `${String(contract.kind)} has a description_quality_score`,
        sent: 'xp.schema.catalog',
        received: show(contract.semantic),
        expected: 'semantic.description_quality_score, a number from 0 to 1',
      });
      if (ok) scores.set(String(contract.kind), score as number);
    }
    const announce = await context.facts.announce();
    const flagged = (() => {
      try {
        return (
          JSON.parse(announce?.content ?? '{}') as {
            low_quality_schemas?: { kind?: unknown; description_quality_score?: unknown }[];
          }
        ).low_quality_schemas;
      } catch {
        return undefined;
      }
    })();
    const poorKind = `${TEST_NAMESPACE}.${POOR_TOOL}`;
    const poor = scores.get(poorKind) ?? flagged?.find((f) => f.kind === poorKind)?.description_quality_score;
    const good = scores.get(`${TEST_NAMESPACE}.read_note`);
    context.expect(typeof poor === 'number' && typeof good === 'number' && good > poor, {
      what: 'a good description scores above a poor one',
      sent: 'xp.schema.catalog and the announce',
      received: `read_note ${show(good)}, ${POOR_TOOL} ${show(poor)}`,
      expected: `read_note's score above ${POOR_TOOL}'s ("Handles stuff for you.")`,
    });
    context.note(`scores: ${[...scores].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  },
};
