// The learned re-ranker: feature rows, the option on and off, and the training script's
// deterministic half (scripts/_ranker-train.mjs) on a tiny hand-made set.
import { describe, expect, it } from 'vitest';
import {
  crossValidate,
  type Example,
  gainStats,
  meanNdcg,
  nestedCrossValidate,
  perExampleNdcg,
  pickSetting,
  rerank,
  splitFolds,
  train,
  trainPath,
} from '../scripts/_ranker-train.mjs';
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
  });

  it('gives server evidence: the namespace most of the best hits come from, and each tool rank in it', () => {
    const index = indexWith({});
    const { ids, rows } = index._candidateFeatures('read a file');
    const ns = (id: string) => id.split('.')[0]!;
    // The shares of the first 10 candidates' blend add up to 1 over the namespaces present.
    const share = new Map<string, number>();
    ids.forEach((id, i) => {
      share.set(ns(id), rows[i]![at('serverVote10')]!);
    });
    expect([...share.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    // "read a file" is about files: fs holds more of the best hits than chat.
    expect(share.get('fs')!).toBeGreaterThan(share.get('chat') ?? 0);
    const fsRows = ids.flatMap((id, i) => (ns(id) === 'fs' ? [rows[i]!] : []));
    expect(fsRows[0]![at('serverRank')]).toBe(1); // the best fs tool: rank 0 in its namespace
    expect(fsRows[1]![at('serverRank')]).toBeCloseTo(1 / Math.log2(3), 12);
    expect(fsRows[0]![at('serverCount10')]).toBeCloseTo(fsRows.length / 10, 12);
    // Namespace size: ln(3 tools) / ln(5 in the index) for fs.
    expect(fsRows[0]![at('serverSize')]).toBeCloseTo(Math.log(3) / Math.log(5), 12);
    const chat = rows[ids.indexOf('chat.history')]!;
    expect(chat[at('serverSize')]).toBeCloseTo(Math.log(2) / Math.log(5), 12);
    expect(chat[at('serverVote5')]).toBeLessThan(fsRows[0]![at('serverVote5')]!);
  });

  it('gives nothing for a query of stop words only', () => {
    expect(indexWith({})._candidateFeatures('the of and')).toEqual({ ids: [], rows: [] });
  });
});

describe('ranker option', () => {
  it('is on by default (DEFAULT_RANKER), off when false or when an embedder is given', () => {
    const q = 'read the chat messages';
    const byDefault = indexWith({}).search(q, { limit: 5 });
    expect(indexWith({ ranker: true }).search(q, { limit: 5 })).toEqual(byDefault);
    const off = indexWith({ ranker: false }).search(q, { limit: 5 });
    // The ranker's scores are a sigmoid, in (0, 1); the blend's best is above 1.
    for (const hit of byDefault) expect(hit.score).toBeLessThan(1);
    expect(off[0]!.score).toBeGreaterThan(1);
    // embedder: null is the round-3 ranking: ranker off unless asked for.
    const none = indexWith({ embedder: null }).search(q, { limit: 5 });
    expect(indexWith({ embedder: null, ranker: false }).search(q, { limit: 5 })).toEqual(none);
    expect(indexWith({ embedder: null, ranker: true }).search(q, { limit: 5 })).not.toEqual(none);
  });

  it('with weight on the blend alone keeps the hand-set order; other weights change it', () => {
    const q = 'read the chat messages';
    const order = (r: LearnedRanker | boolean) =>
      indexWith({ ranker: r })
        .search(q, { limit: 5 })
        .map((h) => h.id);
    const plain = indexWith({ ranker: false })
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

describe('nested cross-validation (the decision rule of eval/README.md)', () => {
  const grid = [10, 0.1, 0.001].map((lambda) => ({ lambda, weighting: 'pair' as const }));

  it('splits deterministically into balanced folds; splits 1 and 2 differ from split 0 and each other', () => {
    const examples = tinyExamples();
    const s0 = splitFolds(examples, 0, 3);
    expect(s0).toEqual(examples.map((_, i) => i % 3));
    const s1 = splitFolds(examples, 1, 3);
    const s2 = splitFolds(examples, 2, 3);
    expect(splitFolds(examples, 1, 3)).toEqual(s1);
    expect(s1).not.toEqual(s0);
    expect(s2).not.toEqual(s1);
    for (const folds of [s1, s2])
      for (let f = 0; f < 3; f++) expect(folds.filter((x) => x === f)).toHaveLength(4);
  });

  it('fits an L2 path like one fit per setting, and picks a setting by inner cross-validation', () => {
    const examples = tinyExamples();
    const path = trainPath(examples, 3, grid);
    grid.forEach((setting, g) => {
      const single = train(examples, 3, setting);
      single.weights.forEach((w, f) => {
        expect(path[g]!.weights[f]!).toBeCloseTo(w, 6);
      });
    });
    expect(grid).toContain(pickSetting(examples, 3, grid, 3));
  });

  it('scores held-out examples only, per split, and compares them with a baseline per example', () => {
    const examples = tinyExamples();
    const nested = nestedCrossValidate(examples, 3, grid, { splits: 3, k: 3 });
    expect(nested).toHaveLength(3);
    for (const s of nested) {
      expect(s.perExample).toHaveLength(examples.length);
      expect(s.mean).toBe(100); // the relevant feature is learnable from any two thirds
    }
    const noise = perExampleNdcg(examples, [1, 0, 0]);
    const stats = gainStats(nested, noise);
    expect(stats.meanGain).toBeGreaterThan(0);
    expect(stats.splitGains).toHaveLength(3);
    expect(stats.t).toBeGreaterThan(1.65);
    // Against itself: no gain, t = 0.
    const self = gainStats(nested, Array.from(nested[0]!.perExample));
    expect(self.meanGain).toBe(0);
    expect(self.t).toBe(0);
  });
});
