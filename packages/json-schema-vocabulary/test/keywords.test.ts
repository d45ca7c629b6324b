// The vocabulary against the drafts' own keyword lists: the properties of each published
// meta-schema (draft-04 from ajv-draft-04, the others from ajv's copies of json-schema.org's
// meta-schemas; 2019-09 and 2020-12 as the union of their vocabulary meta-schemas).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ANNOTATION_KEYWORDS,
  ARRAY_SUBSCHEMA_KEYWORDS,
  CONSTRAINING_KEYWORDS,
  KEYWORDS,
  keywordInfo,
  keywordsOf,
  MAP_SUBSCHEMA_KEYWORDS,
  SCHEMA_DIALECTS,
  type SchemaDialect,
  SINGLE_SUBSCHEMA_KEYWORDS,
} from '../src/index.js';

const require = createRequire(import.meta.url);
const AJV_REFS = join(dirname(require.resolve('ajv/package.json')), 'dist/refs');
const DRAFT04 = join(
  dirname(require.resolve('ajv-draft-04/package.json')),
  'dist/refs/json-schema-draft-04.json',
);

function propertiesOf(file: string): string[] {
  return Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { properties?: object }).properties ?? {});
}

function metaKeywords(dialect: SchemaDialect): Set<string> {
  switch (dialect) {
    case 'draft-04':
      // `$ref` (JSON Reference) and `format` (validation spec §7) are defined by the draft-04
      // specifications but not listed in its meta-schema's properties.
      return new Set([...propertiesOf(DRAFT04), '$ref', 'format']);
    case 'draft-06':
      return new Set(propertiesOf(join(AJV_REFS, 'json-schema-draft-06.json')));
    case 'draft-07':
      // The draft-07 validation spec §10.3 defines `writeOnly` beside `readOnly`; its meta-schema omits it.
      return new Set([...propertiesOf(join(AJV_REFS, 'json-schema-draft-07.json')), 'writeOnly']);
    default: {
      const dir = join(AJV_REFS, `json-schema-${dialect}`, 'meta');
      return new Set(readdirSync(dir).flatMap((f) => propertiesOf(join(dir, f))));
    }
  }
}

describe('the vocabulary against each draft’s meta-schema', () => {
  it.each(SCHEMA_DIALECTS)('%s: exactly the keywords its meta-schema names', (dialect) => {
    const ours = keywordsOf(dialect).filter((name) => KEYWORDS.get(name)?.extension !== true);
    expect(ours.sort(), `${dialect} keywords`).toEqual([...metaKeywords(dialect)].sort());
  });

  it.each(['2019-09', '2020-12'] as const)(
    '%s: the top meta-schema’s compatibility properties are the retired keywords',
    (dialect) => {
      const top = propertiesOf(join(AJV_REFS, `json-schema-${dialect}`, 'schema.json'));
      for (const name of top) {
        expect(keywordInfo(name), name).toBeDefined();
        expect(keywordsOf(dialect), `${name} is compatibility only in ${dialect}`).not.toContain(name);
      }
    },
  );

  it('every subschema-bearing keyword of a draft holds schemas in its meta-schema', () => {
    for (const dialect of SCHEMA_DIALECTS) {
      for (const name of keywordsOf(dialect)) {
        const shape = KEYWORDS.get(name)?.subschemas?.shape;
        if (shape === undefined) continue;
        expect(['applicator', 'core', 'annotation'], name).toContain(KEYWORDS.get(name)?.role);
      }
    }
  });
});

describe('lists by role and shape', () => {
  it('sorts subschema keywords by shape (items is both one schema and, before 2020-12, an array)', () => {
    expect([...SINGLE_SUBSCHEMA_KEYWORDS].sort()).toEqual(
      [
        'additionalItems',
        'additionalProperties',
        'contains',
        'contentSchema',
        'else',
        'if',
        'items',
        'not',
        'propertyNames',
        'then',
        'unevaluatedItems',
        'unevaluatedProperties',
      ].sort(),
    );
    expect([...ARRAY_SUBSCHEMA_KEYWORDS].sort()).toEqual(['allOf', 'anyOf', 'items', 'oneOf', 'prefixItems']);
    expect([...MAP_SUBSCHEMA_KEYWORDS].sort()).toEqual(
      ['$defs', 'definitions', 'dependencies', 'dependentSchemas', 'patternProperties', 'properties'].sort(),
    );
  });

  it('separates what constrains from what only describes', () => {
    for (const name of ['type', 'properties', '$ref', 'nullable', 'dependencies', 'minContains'])
      expect(CONSTRAINING_KEYWORDS.has(name), name).toBe(true);
    for (const name of ['title', 'description', 'contentSchema', '$comment', '$id', '$defs'])
      expect(CONSTRAINING_KEYWORDS.has(name), name).toBe(false);
    for (const name of ANNOTATION_KEYWORDS) expect(CONSTRAINING_KEYWORDS.has(name), name).toBe(false);
    expect(keywordsOf('draft-04', ['reference'])).toEqual(['$ref']);
    expect(keywordsOf('2020-12', ['reference'])).toEqual(['$ref', '$dynamicRef']);
    expect(keywordInfo('x-vendor')).toBeUndefined();
    expect(keywordInfo('constructor')).toBeUndefined();
  });
});
