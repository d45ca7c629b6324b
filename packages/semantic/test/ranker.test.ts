// The learned re-ranker: feature rows, the option on and off, and the training script's
// deterministic half (scripts/_ranker-train.mjs) on a tiny hand-made set.
import { describe, expect, it } from 'vitest';
import { crossValidate, type Example, meanNdcg, rerank, train } from '../scripts/_ranker-train.mjs';
import { DEFAULT_RANKER, type LearnedRanker, RANKER_FEATURES, ToolIndex } from '../src/search.js';

const TOOLS = [
  {
    id: 'fs.read_file',
    name: 'read_file',
    description: 'Read the contents of a file from disk',
    namespace: 'fs',
  },
  { id: 'fs.write_file', name: 'write_file', description: 'Write text to a file on disk', namespace: 'fs' },
  {
    id: 'fs.list_directory',
    name: 'list_directory',
    description: 'List the files in a directory',
    namespace: 'fs',
  },
  {
    id: 'chat.post_message',
    name: 'post_message',
    description: 'Post a message to a channel',
    namespace: 'chat',
  },
  {
    id: 'chat.history',
    name: 'history',
    description: 'Read the messages of a channel, newest first; can also read a file shared there',
    namespace: 'chat',
  },
];

const at = (name: string): number => RANKER_FEATURES.indexOf(name as (typeof RANKER_FEATURES)[number]);

/** A ranker that scores by one feature alone. */
function only(feature: string): LearnedRanker {
  return { features: RANKER_FEATURES, weights: RANKER_FEATURES.map((f) => (f === feature ? 1 : 0)), bias: 0 };
}

function indexWith(options: ConstructorParameters<typeof ToolIndex>[0]): ToolIndex {
  const index = new ToolIndex(options);
  index.add(TOOLS);
  return index;
}

describe('ranker features', () => {
  it('gives one row of RANKER_FEATURES per candidate, in the blended order', () => {
    const index = indexWith({});
    const { ids, rows } = index._candidateFeatures('read a file');
    expect(ids[0]).toBe('fs.read_file');
    expect(ids).toEqual(index.search('read a file', { limit: 100 }).map((h) => h.id));
    expect(rows).toHaveLength(ids.length);
    for (const row of rows) expect(row).toHaveLength(RANKER_FEATURES.length);
    const top = rows[0]!;
    expect(top[at('blend')]).toBe(1);
    expect(top[at('lexical')]).toBe(1);
    expect(top[at('verbMatch')]).toBe(1); // read ↔ read_file
    expect(top[at('subjectMatch')]).toBe(1); // file
    // Both words of read_file asked for; `read`, a strong verb, at the verb term weight 0.75.
    expect(top[at('nameCoverage')]).toBeGreaterThan(0.75);
    expect(top[at('nameCoverage')]).toBeLessThan(1);
    expect(top[at('field.name')]).toBeGreaterThan(0);
    expect(top[at('lexicalRank')]).toBe(1); // rank 0 → 1 / log2(2)
    // Two namespaces: the server affinity of fs is the best one.
    expect(top[at('server')]).toBe(1);
    const history = rows[ids.indexOf('chat.history')]!;
    expect(history[at('field.name')]).toBe(0); // "history" shares no word with the query
    expect(history[at('field.description')]).toBeGreaterThan(0);
    expect(history[at('nameCoverage')]).toBe(0);
    // Interactions: "read a file" has two search terms, long = 2/16.
    expect(top[at('long×blend')]).toBeCloseTo(2 / 16, 10);
  });

  it('gives nothing for a query of stop words only', () => {
    expect(indexWith({})._candidateFeatures('the of and')).toEqual({ ids: [], rows: [] });
  });
});

describe('ranker option', () => {
  it('is off by default and when false', () => {
    const q = 'read the chat messages';
    const plain = indexWith({}).search(q, { limit: 5 });
    expect(indexWith({ ranker: false }).search(q, { limit: 5 })).toEqual(plain);
  });

  it('with weight on the blend alone keeps the hand-set order; other weights change it', () => {
    const q = 'read the chat messages';
    const order = (r: LearnedRanker | boolean) =>
      indexWith({ ranker: r })
        .search(q, { limit: 5 })
        .map((h) => h.id);
    const plain = indexWith({})
      .search(q, { limit: 5 })
      .map((h) => h.id);
    expect(order(only('blend'))).toEqual(plain);
    // The blend puts chat.history first (its description says it all); scored by the name field
    // alone, a tool whose name the query does not name drops to the end.
    expect(plain[0]).toBe('chat.history');
    const byName = order(only('field.name'));
    expect(byName).not.toEqual(plain);
    expect(byName[byName.length - 1]).toBe('chat.history');
    for (const hit of indexWith({ ranker: true }).search(q, { limit: 5 })) {
      expect(hit.score).toBeGreaterThan(0);
      expect(hit.score).toBeLessThan(1);
    }
  });

  it('checks a ranker of its own', () => {
    expect(() => new ToolIndex({ ranker: { features: ['blend'], weights: [1], bias: 0 } })).toThrow(
      /ranker\.features/,
    );
    expect(
      () =>
        new ToolIndex({
          ranker: { ...DEFAULT_RANKER, weights: DEFAULT_RANKER.weights.map(() => Number.NaN) },
        }),
    ).toThrow(/ranker\.weights/);
    expect(DEFAULT_RANKER.weights).toHaveLength(RANKER_FEATURES.length);
  });
});

/** Tiny training set: 3 features; feature 1 marks the relevant candidate, feature 0 is noise that
 * ranks it last, feature 2 is constant. */
function tinyExamples(): Example[] {
  const out: Example[] = [];
  for (let q = 0; q < 12; q++) {
    const ids = ['a', 'b', 'c', 'd'].map((c) => `${q}${c}`);
    const good = q % 4;
    const rows = ids.map((_, i) => [
      3 - i + ((q * 7 + i) % 3) * 0.1,
      i === good ? 1 : (q + i) % 5 === 0 ? 0.6 : 0,
      1,
    ]);
    out.push({ id: `q${q}`, ids, rows, gold: [{ id: ids[good]!, grade: 2 }] });
  }
  return out;
}

describe('training (scripts/_ranker-train.mjs)', () => {
  const setting = { lambda: 0.1, weighting: 'pair' as const };

  it('is deterministic: the same data give the same weights, bit for bit', () => {
    const a = train(tinyExamples(), 3, setting);
    const b = train(tinyExamples(), 3, setting);
    expect(a).toEqual(b);
    expect(crossValidate(tinyExamples(), 3, setting, 3)).toBe(crossValidate(tinyExamples(), 3, setting, 3));
  });

  it('learns the feature that marks relevance and ranks by it', () => {
    const examples = tinyExamples();
    const { weights, bias } = train(examples, 3, setting);
    expect(weights[1]!).toBeGreaterThan(0);
    expect(weights[1]!).toBeGreaterThan(Math.abs(weights[0]!));
    expect(weights[2]).toBe(0); // constant feature: nothing to learn
    expect(meanNdcg(examples, weights, bias)).toBe(100);
    expect(meanNdcg(examples, [1, 0, 0])).toBeLessThan(100); // the noise feature alone
    expect(rerank(examples[2]!, weights, bias)[0]).toBe('2c');
  });

  it('regularizes: a larger L2 weight gives smaller weights', () => {
    const small = train(tinyExamples(), 3, { lambda: 0.01, weighting: 'pair' });
    const large = train(tinyExamples(), 3, { lambda: 10, weighting: 'pair' });
    expect(Math.abs(large.weights[1]!)).toBeLessThan(Math.abs(small.weights[1]!));
  });

  it('shrinks towards the ranker of one feature when asked: a huge L2 weight keeps that ranker', () => {
    const examples = tinyExamples();
    // Pulled towards a fit on feature 1 alone; without the pull, feature 0 gets a weight of its own.
    const free = train(examples, 3, { lambda: 0.01, weighting: 'pair' });
    const pulled = train(examples, 3, { lambda: 1e9, weighting: 'pair', shrinkTo: 1 });
    // Towards 0, so huge a weight leaves nothing (about 3e-8); towards the fit, its full size.
    expect(pulled.weights[1]!).toBeGreaterThan(1);
    expect(train(examples, 3, { lambda: 1e9, weighting: 'pair' }).weights[1]!).toBeLessThan(1e-3);
    expect(Math.abs(pulled.weights[0]!)).toBeLessThan(1e-3 * pulled.weights[1]!);
    expect(Math.abs(free.weights[0]!)).toBeGreaterThan(1e-3 * free.weights[1]!);
    expect(meanNdcg(examples, pulled.weights)).toBe(100);
  });

  it('keeps masked features at 0', () => {
    const { weights } = train(tinyExamples(), 3, { ...setting, mask: [true, false, true] });
    expect(weights[1]).toBe(0);
  });
});
