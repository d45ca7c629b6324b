/**
 * Test 5: low-quality schemas are flagged in `xp.endpoint.announce` (`low_quality_schemas`), and
 * well-described ones are not.
 * @module
 */
import { type Check, show } from '../check.js';
import { POOR_TOOL, TEST_NAMESPACE, UNPUBLISHABLE_TOOL } from '../test-tools.js';

export const lowQuality: Check = {
  name: 'low-quality-flag',
  number: 5,
  title: 'Low-quality schemas are flagged in xp.endpoint.announce',
  async run(context) {
    const announce = await context.facts.announce();
    let payload: { low_quality_schemas?: unknown } | undefined;
    try {
      payload = JSON.parse(announce?.content ?? 'null') as typeof payload;
    } catch {
      payload = undefined;
    }
    const list = payload?.low_quality_schemas;
    if (
      !context.expect(Array.isArray(list), {
        what: 'the announce has low_quality_schemas',
        sent: "a subscription to the adapter's xp.endpoint.announce",
        received: show(payload),
        expected: 'low_quality_schemas: [{kind, description_quality_score, issue}]',
      })
    ) {
      return;
    }
    const entries = list as { kind?: unknown; description_quality_score?: unknown; issue?: unknown }[];
    const poor = entries.find((e) => e.kind === `${TEST_NAMESPACE}.${POOR_TOOL}`);
    context.expect(
      poor !== undefined &&
        typeof poor.description_quality_score === 'number' &&
        typeof poor.issue === 'string',
      {
        what: `the published tool described as "Handles stuff for you." is flagged`,
        sent: 'the announce',
        received: show(entries),
        expected: `an entry {kind: "${TEST_NAMESPACE}.${POOR_TOOL}", description_quality_score, issue}`,
      },
    );
    const good = entries.find((e) => e.kind === `${TEST_NAMESPACE}.read_note`);
    context.expect(good === undefined, {
      what: 'a well-described tool is not flagged',
      sent: 'the announce',
      received: show(good),
      expected: `no entry for ${TEST_NAMESPACE}.read_note`,
    });
    // Tools below the publication floor may be left out of the catalog; the spec asks that
    // published low-quality schemas be flagged, so their listing is only reported.
    const unpublishable = entries.some((e) => e.kind === `${TEST_NAMESPACE}.${UNPUBLISHABLE_TOOL}`);
    context.note(`flagged: ${show(entries.map((e) => e.kind))}`);
    context.note(
      `${TEST_NAMESPACE}.${UNPUBLISHABLE_TOOL} (described as "stuff"): ${unpublishable ? 'listed' : 'not listed'} in low_quality_schemas`,
    );
  },
};
