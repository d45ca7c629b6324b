/**
 * Test 2: a `semantic` field is auto-generated for every wrapped tool, with the fields the spec
 * lists (intent verbs, data subjects, domain, related schemas, the quality score, the
 * auto-generated mark).
 * @module
 */
import { type Check, show } from '../check.js';
import { TEST_NAMESPACE } from '../test-tools.js';

export const semantic: Check = {
  name: 'semantic',
  number: 2,
  title: 'semantic field is auto-generated for every wrapped tool',
  async run(context) {
    const contracts = await context.facts.catalog();
    const wrapped = contracts.filter((c) => String(c.kind).startsWith('conf.'));
    context.expect(wrapped.length > 0, {
      what: 'the catalog lists the test server tools',
      sent: 'xp.schema.catalog',
      received: show(contracts.map((c) => c.kind)),
      expected: `kinds under ${TEST_NAMESPACE}`,
    });
    for (const contract of wrapped) {
      const s = contract.semantic as Record<string, unknown> | undefined;
      const problems: string[] = [];
      if (!s || typeof s !== 'object') problems.push('no semantic object');
      else {
        for (const key of ['intent_verbs', 'data_subjects', 'related_schemas']) {
          if (!Array.isArray(s[key]) || !(s[key] as unknown[]).every((v) => typeof v === 'string')) {
            problems.push(`${key} is not a list of strings`);
          }
        }
        if (typeof s.domain !== 'string') problems.push('domain is not a string');
        if (typeof s.description_quality_score !== 'number') problems.push('no description_quality_score');
        if (s.auto_generated !== true) problems.push('auto_generated is not true');
      }
      context.expect(problems.length === 0, {
        what: `${String(contract.kind)} has an auto-generated semantic field`,
        sent: 'xp.schema.catalog',
        received: `${problems.join('; ')}: ${show(s)}`,
        expected:
          'semantic {intent_verbs, data_subjects, domain, related_schemas, description_quality_score, auto_generated: true}',
      });
    }
    const read = wrapped.find((c) => c.kind === `${TEST_NAMESPACE}.read_note`);
    const s = read?.semantic as { intent_verbs?: unknown; data_subjects?: unknown } | undefined;
    context.expect(
      Array.isArray(s?.intent_verbs) &&
        s.intent_verbs.includes('read') &&
        Array.isArray(s?.data_subjects) &&
        s.data_subjects.includes('note'),
      {
        what: 'read_note is annotated from its name',
        sent: 'xp.schema.catalog',
        received: show(s),
        expected: 'intent_verbs containing "read" and data_subjects containing "note"',
      },
    );
    context.note(`${wrapped.length} wrapped contracts carry semantic annotations`);
  },
};
