/**
 * The proto3 round trip on a fixed sample of the MaskBench dev corpus (test/_proto-corpus.ts):
 * every 12th row, plus the first row refused for each reason on the whole corpus, so the sample
 * meets every refusal and the unions. The whole corpus is `pnpm --filter @xprotocol/translate
 * eval:proto` (docs/translation.md §8 gives its figures).
 */
import { describe, expect, it } from 'vitest';
import { figuresReport, runCorpus } from './_proto-corpus.js';

/** The first row refused for each reason on the whole corpus (the eval prints them). */
const FIRST_OF_EACH_REASON = new Set([
  'BFCL_multiple_10.json',
  'Github_easy---o10077.json',
  'Github_easy---o11796.json',
  'Github_easy---o12368.json',
  'Github_easy---o13701.json',
  'Github_easy---o14471.json',
  'Github_easy---o17544.json',
  'Github_easy---o17635.json',
  'Github_easy---o21040.json',
  'Github_easy---o24176.json',
  'Github_easy---o25978.json',
  'Github_easy---o27074.json',
  'Github_easy---o29987.json',
  'Github_easy---o39084.json',
  'Github_easy---o39214.json',
  'Github_easy---o46379.json',
  'Github_easy---o57232.json',
  'Github_easy---o66201.json',
  'Github_easy---o68296.json',
  'Github_easy---o68333.json',
  'Github_easy---o83161.json',
  'Github_hard---o19187.json',
  'Github_hard---o26649.json',
  'Github_hard---o43189.json',
  'Github_hard---o62057.json',
  'Github_hard---o64556.json',
  'Github_hard---o65670.json',
  'Github_hard---o73929.json',
  'Github_medium---o39097.json',
  'Github_medium---o61619.json',
  'Github_trivial---o75595.json',
  'JsonSchemaStore---backportrc.json',
]);

/** Every reason the whole corpus gives (refusals, and translations with nothing to compare). */
const REASONS = [
  '"additionalItems" has no protobuf form',
  '"dependencies" has no protobuf form',
  '"…" beside a string enum is not translated ',
  '"…" beside anyOf is not translated: it would apply to every branch of the protobuf oneof',
  '"…" beside oneOf is not translated: it would apply to every branch of the protobuf oneof',
  '"…" is required but no property declares it: a protobuf field cannot require an undeclared member',
  '"…" on a schema with no type (or a mixed-type enum) has no protobuf form',
  'a negated schema has no protobuf form',
  'a reference has no protobuf form unless it names a message; references are not followed',
  'a tool schema must be a JSON object schema ',
  'an enum or const beside a list of types is not translated: its values would have to be split by type',
  'an intersection of schemas has no protobuf form',
  'anyOf and oneOf side by side are not translated',
  'anyOf branch N has no single JSON type: a protobuf oneof tells its members apart by JSON type only',
  'bound outside int64',
  'conditional schemas (if/then/else) have no protobuf form',
  'enum values must all be of type array',
  'enum values must all be of type object',
  'enum values must all be of type string',
  'format "…" has no protovalidate string rule ',
  'oneOf branch N has no single JSON type: a protobuf oneof tells its members apart by JSON type only',
  'protobuf map keys cannot be split by pattern into differently typed values',
  'protovalidate checks uniqueness of scalar and enum elements only',
  'protovalidate counts no message members',
  'protovalidate has no multiple-of rule',
  'translated, but ajv validates it asynchronously',
  'translated, but the original does not compile in ajv',
  'two branches accept JSON arrays (array and array): a protobuf oneof tells its members apart by JSON type only, and these would need their values to do it',
  'two branches accept JSON numbers (integer and integer): a protobuf oneof tells its members apart by JSON type only, and these would need their values to do it',
  'two branches accept JSON objects (object and object): a protobuf oneof tells its members apart by JSON type only, and these would need their values to do it',
  'two branches accept JSON strings (string and string): a protobuf oneof tells its members apart by JSON type only, and these would need their values to do it',
  'type "…" has no protobuf form on its own',
];

describe('proto3 round trip on a sample of MaskBench dev', () => {
  it('every translated schema agrees with its round trip on every test instance', () => {
    const figures = runCorpus((i, row) => i % 12 === 0 || FIRST_OF_EACH_REASON.has(row.file));
    console.log('proto3 on a MaskBench dev sample:', JSON.stringify(figuresReport(figures), null, 2));
    expect(figures.uncompiled).toEqual([]);
    expect(figures.disagreements).toEqual([]);
    expect(figures.rows).toBe(3778);
    expect(figures.run).toBe(343);
    expect([...figures.byReason.keys()].sort()).toEqual([...REASONS].sort());
    // the sample holds translated unions (oneof wrapper messages) and compares real instances
    expect(figures.unions).toBeGreaterThan(5);
    expect(figures.instances).toBeGreaterThan(300);
  }, 600_000);
});
