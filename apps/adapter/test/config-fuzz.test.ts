// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${NAME} text
/**
 * Properties of the loader: whatever the text, it returns a configuration or throws a
 * ConfigError whose every issue has a position and a message (never another exception); the same
 * text always gives the same result; and a valid file's key order does not matter.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { ConfigError, parseConfig } from '../src/config/index.js';
import { base } from './config-helpers.js';

const OPTIONS = { env: { HOME: '/home/ada' }, homeDir: '/home/ada' };

function outcome(text: string): string {
  try {
    return JSON.stringify(parseConfig(text, 'f.yml', OPTIONS));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const issue of error.issues) {
      expect(issue.message.length).toBeGreaterThan(0);
      expect(issue.file).toBe('f.yml');
      expect(Number.isInteger(issue.line) && Number.isInteger(issue.column)).toBe(true);
    }
    expect(error.issues.length).toBeGreaterThan(0);
    return `${error.code}\n${error.message}`;
  }
}

/** The valid base file as a value, to mutate. */
const VALID = parse(base()) as Record<string, unknown>;

const leaf = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    'stdio',
    'sse',
    '${HOME}',
    '${NOPE}',
    'ws://127.0.0.1:1',
    'xp://a',
    'ed25519:abc',
    '*',
    '~/x',
  ),
);
const value = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('any'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('any'), { maxKeys: 3 }),
  ),
})).any;

/** Replaces the value at a random path of `doc` (or adds a key there). */
function mutate(doc: unknown, steps: number[], replacement: unknown, key: string): unknown {
  if (steps.length === 0 || doc === null || typeof doc !== 'object') return replacement;
  const [step, ...rest] = steps as [number, ...number[]];
  if (Array.isArray(doc)) {
    if (doc.length === 0) return [replacement];
    const i = step % doc.length;
    return doc.map((v, j) => (j === i ? mutate(v, rest, replacement, key) : v));
  }
  const entries = Object.entries(doc);
  if (entries.length === 0 || step % 5 === 0) return { ...doc, [key]: replacement };
  const [k] = entries[step % entries.length]!;
  return { ...doc, [k]: mutate((doc as Record<string, unknown>)[k], rest, replacement, key) };
}

describe('the loader on arbitrary input (property)', () => {
  it('never throws anything but a positioned ConfigError on random text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 80 }), (text) => {
        outcome(text);
      }),
      { numRuns: 400, seed: 11 },
    );
  });
  it('never throws anything but a positioned ConfigError on random documents', () => {
    fc.assert(
      fc.property(value, (doc) => {
        outcome(stringify(doc));
      }),
      { numRuns: 300, seed: 12 },
    );
  });
  it('never throws anything but a positioned ConfigError on mutations of a valid file, and is deterministic', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { maxLength: 5 }),
        value,
        fc.constantFrom('name', 'port', 'key', 'url', 'x'),
        (steps, replacement, key) => {
          const text = stringify(mutate(VALID, steps, replacement, key));
          expect(outcome(text)).toBe(outcome(text));
        },
      ),
      { numRuns: 300, seed: 13 },
    );
  });
  it('gives the same configuration whatever the key order of a valid file', () => {
    const shuffle = (v: unknown, order: number[]): unknown => {
      if (Array.isArray(v)) return v.map((x) => shuffle(x, order));
      if (v === null || typeof v !== 'object') return v;
      const entries = Object.entries(v);
      const keyed = entries.map((e, i) => [order[i % Math.max(order.length, 1)] ?? i, e] as const);
      keyed.sort((a, b) => a[0] - b[0]);
      return Object.fromEntries(keyed.map(([, [k, x]]) => [k, shuffle(x, order)]));
    };
    const expected = JSON.stringify(parseConfig(base(), 'f.yml', OPTIONS).config);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 10 }), (order) => {
        const text = stringify(shuffle(VALID, order));
        expect(JSON.stringify(parseConfig(text, 'f.yml', OPTIONS).config)).toBe(expected);
      }),
      { numRuns: 100, seed: 14 },
    );
  });
});
