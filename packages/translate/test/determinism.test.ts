import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Annotate,
  canonicalSchemaJson,
  SchemaCompiler,
  serializeContract,
  type TranslationSeams,
  translateSource,
} from '../src/index.js';
import { loadServers } from './_data.js';

/** Deterministic PRNG (mulberry32) so a failing seed can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * Rebuilds every object with its keys in a random order — except `properties` maps, whose order is
 * declaration order (semantic for grammars). Arrays keep their order (it is data).
 */
function shuffleKeys(value: unknown, random: () => number, parentKey = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, random));
  if (typeof value !== 'object' || value === null) return value;
  const keys = Object.keys(value);
  const order = parentKey === 'properties' ? keys : shuffle(keys, random);
  const out: Record<string, unknown> = {};
  for (const k of order) out[k] = shuffleKeys((value as Record<string, unknown>)[k], random, k);
  return out;
}

const servers = loadServers();
const compiler = new SchemaCompiler();

/**
 * A cheap stand-in for the semantic annotator over the whole corpus (@xprotocol/semantic's own
 * annotator is exercised, with its cost, in the fast-check test below and in translate-source.test.ts):
 * it depends on the tool, its description and its siblings, so their plumbing is covered.
 */
const stubAnnotate: Annotate = ({ kind, tool, siblings }) => ({
  kind,
  words: (tool.description ?? '').split(/\s+/).slice(0, 5),
  siblings: siblings.map((s) => s.kind),
});

function run(
  server: (typeof servers)[number],
  tools: unknown[],
  prompts: unknown[],
  seams?: TranslationSeams,
) {
  const out = translateSource(
    { name: server.file, namespace: server.namespace, tools, prompts, adapterVersion: '0.1.0' },
    { compiler, seams },
  );
  return {
    contracts: out.contracts.map(serializeContract),
    rest: JSON.stringify({ r: out.refused, w: out.warnings, e: out.excluded }),
  };
}

describe('determinism (docs/design.md §1): shuffled key order → byte-identical output', () => {
  it.each(servers.map((s, i) => [s.file, s, i] as const))(
    '%s, shuffled keys and tool order',
    (file, server, i) => {
      const base = run(server, server.tools, server.prompts, { annotate: stubAnnotate });
      const random = rng(0x5eed + i);
      const shuffledTools = shuffle(server.tools, random).map((t) => shuffleKeys(t, random));
      const shuffledPrompts = shuffle(server.prompts, random).map((p) => shuffleKeys(p, random));
      const again = run(server, shuffledTools, shuffledPrompts, { annotate: stubAnnotate });
      expect(again.contracts, file).toEqual(base.contracts);
      expect(again.rest, file).toBe(base.rest);
    },
  );

  it('holds for arbitrary seeds (fast-check) on the filesystem and everything servers, with the default seams', () => {
    const picked = servers.filter((s) => /server-(filesystem|everything)\.json$/.test(s.file));
    expect(picked).toHaveLength(2);
    const bases = picked.map((s) => run(s, s.tools, s.prompts));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 1 }), (seed, which) => {
        const server = picked[which] as (typeof picked)[number];
        const random = rng(seed);
        const again = run(
          server,
          shuffle(server.tools, random).map((t) => shuffleKeys(t, random)),
          server.prompts.map((p) => shuffleKeys(p, random)),
        );
        expect(again).toEqual(bases[which]);
      }),
      { numRuns: 10, seed: 7 },
    );
  });

  it('declaration order of properties is kept in the canonical form, everything else is sorted', () => {
    const a = canonicalSchemaJson({
      type: 'object',
      required: ['b'],
      properties: { b: { type: 'string', description: 'B' }, a: { description: 'A', type: 'number' } },
    });
    expect(a).toBe(
      '{"properties":{"b":{"description":"B","type":"string"},"a":{"description":"A","type":"number"}},"required":["b"],"type":"object"}',
    );
    // a property named like a keyword is a name, not a keyword
    const b = canonicalSchemaJson({ properties: { properties: { properties: { z: {}, y: {} } } } });
    expect(b).toBe('{"properties":{"properties":{"properties":{"z":{},"y":{}}}}}');
    // $defs and patternProperties are sorted (their order means nothing)
    expect(canonicalSchemaJson({ $defs: { z: {}, a: {} } })).toBe('{"$defs":{"a":{},"z":{}}}');
  });

  it('arbitrary JSON inside non-schema positions serializes per RFC 8785 regardless of key order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.integer(), (annotations, seed) => {
        const tool = { name: 'get_x', inputSchema: { type: 'object' }, annotations };
        const one = translateSource(
          { name: 's', namespace: 'n.s', tools: [tool], adapterVersion: '1' },
          { compiler },
        );
        const two = translateSource(
          { name: 's', namespace: 'n.s', tools: [shuffleKeys(tool, rng(seed))], adapterVersion: '1' },
          { compiler },
        );
        expect(one.contracts.map(serializeContract)).toEqual(two.contracts.map(serializeContract));
        expect(one.refused).toEqual(two.refused);
      }),
      { numRuns: 100, seed: 11 },
    );
  });
});
