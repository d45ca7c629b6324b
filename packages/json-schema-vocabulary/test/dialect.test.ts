import { describe, expect, it } from 'vitest';
import { DIALECT_URIS, SCHEMA_DIALECTS, schemaDialect } from '../src/index.js';

describe('schemaDialect', () => {
  it('reads each dialect’s own URI, with http or https and with or without "#"', () => {
    for (const dialect of SCHEMA_DIALECTS) {
      const uri = DIALECT_URIS[dialect];
      expect(schemaDialect({ $schema: uri }), uri).toBe(dialect);
      expect(schemaDialect({ $schema: uri.endsWith('#') ? uri.slice(0, -1) : `${uri}#` })).toBe(dialect);
      expect(
        schemaDialect({ $schema: uri.replace(/^https?:/, (s) => (s === 'http:' ? 'https:' : 'http:')) }),
      ).toBe(dialect);
    }
  });

  it('defaults to 2020-12 without $schema, and recognises nothing else', () => {
    expect(schemaDialect({ type: 'object' })).toBe('2020-12');
    expect(schemaDialect(true)).toBe('2020-12');
    expect(schemaDialect({ $schema: 'http://json-schema.org/draft-03/schema#' })).toBeUndefined();
    expect(schemaDialect({ $schema: 'http://json-schema.org/schema#' })).toBeUndefined();
    expect(schemaDialect({ $schema: 'https://example.com/draft-07/schema' })).toBeUndefined();
    expect(schemaDialect({ $schema: 7 })).toBeUndefined();
  });
});
