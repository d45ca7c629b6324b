// testdata/vectors/xp-well-known.json (docs/protocol.md §10.10), the payload half: every valid
// document reads as the file's `read`, every invalid one is refused with a problem naming its field.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWellKnownDocument } from '../src/index.js';

interface WellKnownVectors {
  valid: { id: string; document: unknown; read: unknown }[];
  invalid: { id: string; document: unknown; field: string | null }[];
}

const vectors = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../testdata/vectors/xp-well-known.json'), 'utf8'),
) as WellKnownVectors;

describe('testdata/vectors/xp-well-known.json (document form)', () => {
  it.each(vectors.valid.map((v) => [v.id, v] as const))('valid %s', (_id, v) => {
    expect(parseWellKnownDocument(v.document)).toEqual({ ok: true, document: v.read });
  });

  it.each(vectors.invalid.map((v) => [v.id, v] as const))('invalid %s', (_id, v) => {
    const parsed = parseWellKnownDocument(v.document);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      const prefix = v.field === null ? 'expected a JSON object' : `${v.field}: `;
      expect(
        parsed.problems.some((p) => p.startsWith(prefix)),
        parsed.problems.join('; '),
      ).toBe(true);
    }
  });
});
