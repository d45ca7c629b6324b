/**
 * Regression tests for the grammar following the standards where the adapter's validator (ajv +
 * ajv-formats) is laxer: each case is a minimal schema reproducing one of the MaskBench dev
 * instances a grammar once accepted although the corpus labels it invalid (its labels come from the
 * Python and Rust `jsonschema` libraries, which follow the RFCs). A grammar must accept only what
 * both ajv and the standard accept, so every string a format grammar accepts is also checked
 * against ajv-formats.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newAjv } from '../scripts/ajv-for.mjs';
import { compileMatcher, compileSchema } from '../src/index.js';

const ajv = newAjv('draft-07');

const DRAFT04 = 'http://json-schema.org/draft-04/schema#';

function matcher(schema: unknown) {
  const r = compileSchema(schema);
  return { ...r, m: compileMatcher(r.gbnf) };
}

describe('draft-04 integers have no fraction or exponent (draft-04 core §3.5)', () => {
  it('MaskBench Github_trivial---o14485: 12345.0 is not a draft-04 integer, so no oneOf branch holds', () => {
    const branch = (type: string) => ({
      type: 'object',
      required: ['type'],
      properties: { type: { enum: [type] }, userId: { type: 'integer' } },
    });
    const { m } = matcher({ $schema: DRAFT04, oneOf: [branch('addUser'), branch('removeUser')] });
    expect(m('{"type":"addUser","userId":12345}')).toBe(true);
    expect(m('{"type":"addUser","userId":12345.0}')).toBe(false);
  });
  it('draft-04 integer vs later drafts', () => {
    const d4 = matcher({ $schema: DRAFT04, type: 'integer' });
    for (const t of ['0', '-0', '12345', '-7']) expect(d4.m(t), t).toBe(true);
    for (const t of ['12345.0', '1e5', '1E+2', '1.5']) expect(d4.m(t), t).toBe(false);
    expect(d4.exact).toBe(true);
    const d7 = matcher({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'integer' });
    for (const t of ['12345.0', '1e5', '12345']) expect(d7.m(t), t).toBe(true);
    // a draft-04 "number" still takes 12345.0, and so does an integer-valued multipleOf on a number
    expect(matcher({ $schema: DRAFT04, type: 'number' }).m('12345.0')).toBe(true);
  });
});

describe('date-time and time follow RFC 3339 §5.6', () => {
  it('MaskBench Github_medium---o82651 / Github_hard---o75565: a space does not separate date and time', () => {
    const { m, exact, warnings } = matcher({ type: 'string', format: 'date-time' });
    for (const t of ['2022-01-01 12:00:00Z', '2024-12-07 17:00:00+01:00', '2022-01-01 12:00:00'])
      expect(m(JSON.stringify(t)), t).toBe(false);
    for (const t of ['2022-01-01T12:00:00Z', '2022-01-01t12:00:00.25+01:30', '2024-02-29T23:59:59-00:00'])
      expect(m(JSON.stringify(t)), t).toBe(true);
    expect(exact).toBe(false);
    expect(warnings.join('\n')).toContain('only "T" or "t" separates date and time');
  });
  it('offsets are Z or ±hh:mm', () => {
    const { m } = matcher({ type: 'string', format: 'time' });
    for (const t of ['10:20:30+0100', '10:20:30+01', '10:20:30']) expect(m(JSON.stringify(t)), t).toBe(false);
    for (const t of ['10:20:30+01:00', '10:20:30z']) expect(m(JSON.stringify(t)), t).toBe(true);
  });
});

describe('uri and uri-reference follow RFC 3986', () => {
  it('MaskBench JsonSchemaStore---bounded-context: "://" is not a URI reference', () => {
    const { m } = matcher({ type: 'string', format: 'uri-reference' });
    const bad = ['://', ':a', 'a:b/c:d'.replace('a:', ':'), '//a@b@c', '/x"y', 'a b'];
    const good = [
      '',
      'Core',
      '../a/b?x=1#y',
      '//host:80/p',
      'https://e.com/a?b#c',
      '/a:b',
      './a:b',
      'a/b:c',
      '#f',
    ];
    for (const t of bad) expect(m(JSON.stringify(t)), t).toBe(false);
    for (const t of good) expect(m(JSON.stringify(t)), t).toBe(true);
  });
  it('an authority follows "//" only', () => {
    const { m } = matcher({ type: 'string', format: 'uri' });
    for (const t of ['s://a@b@c', 's://h:1:2', 's:', '://x']) expect(m(JSON.stringify(t)), t).toBe(false);
    for (const t of ['s://u:p@h:8/x', 's:/a@b', 'urn:x:y', 'mailto:a@b.c'])
      expect(m(JSON.stringify(t)), t).toBe(true);
  });
});

describe('iri and iri-reference are asserted (RFC 3987) although ajv-formats ignores them', () => {
  it('MaskBench Github_easy---o76630: "not-an-iri" is not an IRI', () => {
    const { m, exact, warnings } = matcher({ $schema: DRAFT04, type: 'string', format: 'iri' });
    expect(m('"not-an-iri"')).toBe(false);
    expect(m(JSON.stringify('https://例え.jp/パス?q=値#frag'))).toBe(true);
    expect(m('"urn:isbn:0451450523"')).toBe(true);
    expect(exact).toBe(false);
    expect(warnings.join('\n')).toContain('format "iri"');
    const ref = matcher({ type: 'string', format: 'iri-reference' });
    expect(ref.m('"données/é"')).toBe(true);
    expect(ref.m('"://"')).toBe(false);
  });
});

describe('every string a format grammar accepts is valid for ajv-formats too', () => {
  const formats = [
    'uri',
    'uri-reference',
    'date-time',
    'time',
    'date',
    'email',
    'ipv4',
    'ipv6',
    'hostname',
    'uuid',
  ];
  const alphabet = fc.constantFrom(
    ...'a1:/@?#%.-[]"T Z+_~0f'.split(''),
    '2024-02-29',
    '23:59:59',
    '//',
    'x:',
    '%41',
  );
  it.each(formats)('%s', (format) => {
    const { m } = matcher({ type: 'string', format });
    const v = ajv.compile({ type: 'string', format });
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 8 }), (parts) => {
        const s = parts.join('');
        if (m(JSON.stringify(s)))
          expect(v(s), `${format}: grammar accepts ${JSON.stringify(s)}, ajv rejects it`).toBe(true);
      }),
      { numRuns: 400, seed: 7 },
    );
  });
  it('draft-04 ajv agrees the narrowed integer is a subset', () => {
    const ajv04 = newAjv('draft-04', { formats: false });
    const v = ajv04.compile({ type: 'integer' });
    const { m } = matcher({ $schema: DRAFT04, type: 'integer' });
    for (const t of ['0', '12', '-3', '12.0', '1e3']) if (m(t)) expect(v(JSON.parse(t)), t).toBe(true);
  });
});
