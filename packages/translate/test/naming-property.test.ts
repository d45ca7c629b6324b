import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isContractKind, type JsonObject, SchemaCompiler, translateSource } from '../src/index.js';

// Property: whatever names a server sends, every tool is accounted for exactly once, kinds are
// valid and distinct, and the outcome does not depend on the order of the tools.
describe('naming rule (property)', () => {
  const nameArb = fc.oneof(
    fc.stringMatching(/^[a-z_./-]{1,6}$/),
    fc.constantFrom('a.b', 'a_b', 'a/b', 'x', 'x', 'bad name', 'é', ''),
  );
  const compiler = new SchemaCompiler();
  const description = 'Read the record named by the path. Use when the agent needs one record.';
  it('accounts for every tool once, with valid distinct kinds, independent of order', () => {
    fc.assert(
      fc.property(fc.array(nameArb, { maxLength: 12 }), fc.integer(), (names, seed) => {
        const tools = names.map((name) => ({
          name,
          description,
          inputSchema: { type: 'object' } as JsonObject,
        }));
        const noop = {
          annotate: () => ({}),
          compileGrammar: () => ({ gbnf: 'root ::= "{}"', exact: true, warnings: [] }),
        };
        const out = translateSource(
          { name: 's', namespace: 'n.s', tools, adapterVersion: '1' },
          { seams: noop, compiler },
        );
        const kinds = out.contracts.map((c) => c.kind);
        expect(new Set(kinds).size).toBe(kinds.length);
        for (const k of kinds) expect(isContractKind(k)).toBe(true);
        expect(out.contracts.length + out.refused.length).toBe(names.length);
        const reversed = seed % 2 === 0 ? [...tools].reverse() : [...tools.slice(1), ...tools.slice(0, 1)];
        const again = translateSource(
          { name: 's', namespace: 'n.s', tools: reversed, adapterVersion: '1' },
          { seams: noop, compiler },
        );
        expect(again).toEqual(out);
      }),
      { numRuns: 200, seed: 5 },
    );
  });
});
