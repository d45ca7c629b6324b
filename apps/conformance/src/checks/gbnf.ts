/**
 * Test 11: GBNF compilation. Every contract carries a grammar that parses (with
 * `@xprotocol/gbnf`'s parser); for the test server's tools the grammar accepts a valid call and
 * refuses an invalid one. In the native profile every contract of the catalog is checked, with the
 * payloads the suite builds from its schema (sample-payload.ts) where it can.
 * @module
 */
import { compileMatcher, parseGrammar } from '@xprotocol/gbnf';
import { type Check, show } from '../check.js';
import { refusedPayload, samplePayload } from '../sample-payload.js';
import { TEST_TOOLS } from '../test-tools.js';
import { toolOf } from './_answers.js';

/** A valid and (when the schema has one) an invalid payload built from a contract's schema. */
function _sampled(schema: unknown): { valid: unknown; invalid?: unknown } | undefined {
  const sample = samplePayload(schema);
  if (!sample.ok) return undefined;
  const refused = refusedPayload(schema, sample.value);
  return { valid: sample.value, ...(refused && { invalid: refused.value }) };
}

export const gbnf: Check = {
  name: 'gbnf',
  number: 11,
  title: 'GBNF compilation: all schemas produce valid parseable grammars',
  async run(context) {
    const native = context.target.profile === 'native';
    const contracts = (await context.facts.catalog()).filter(
      (c) => native || String(c.kind).startsWith('conf.'),
    );
    let checked = 0;
    for (const contract of contracts) {
      const kind = String(contract.kind);
      const grammar = contract.gbnf_grammar;
      if (
        !context.expect(typeof grammar === 'string' && grammar.length > 0, {
          what: `${kind} carries a grammar`,
          sent: 'xp.schema.catalog',
          received: `gbnf_grammar ${show(grammar, 80)}, gbnf_status ${show(contract.gbnf_status)}`,
          expected: 'a GBNF grammar string',
        })
      ) {
        continue;
      }
      try {
        parseGrammar(grammar as string);
      } catch (error) {
        context.fail({
          what: `${kind}'s grammar parses`,
          sent: 'xp.schema.catalog',
          received: `${(error as Error).message} in ${show(grammar, 200)}`,
          expected: 'a grammar @xprotocol/gbnf parses',
        });
        continue;
      }
      const tool = native ? _sampled(contract.payload) : TEST_TOOLS.find((t) => t.name === toolOf(kind));
      if (!tool) continue;
      const matches = compileMatcher(grammar as string);
      const valid = JSON.stringify(tool.valid);
      const invalid = tool.invalid === undefined ? undefined : JSON.stringify(tool.invalid);
      context.expect(matches(valid), {
        what: `${kind}'s grammar accepts a valid call`,
        sent: valid,
        received: 'refused by the grammar',
        expected: 'accepted',
      });
      context.expect(invalid === undefined || !matches(invalid), {
        what: `${kind}'s grammar refuses an invalid call`,
        sent: String(invalid),
        received: 'accepted by the grammar',
        expected: 'refused',
      });
      checked++;
    }
    context.expect(contracts.length > 0, {
      what: 'there are grammars to check',
      sent: 'xp.schema.catalog',
      received: '0 contracts',
      expected: native ? 'the contracts of the catalog' : 'the test server tools',
    });
    context.note(`${contracts.length} grammars parse; ${checked} accept a valid and refuse an invalid call`);
  },
};
