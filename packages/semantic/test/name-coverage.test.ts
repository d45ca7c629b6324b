import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mcpDocuments } from '../scripts/_mcp-corpus.mjs';
import { evaluate } from '../scripts/retrieval-metrics.mjs';
import { ToolIndex } from '../src/search.js';

const opts = { vectorWeight: 0, embedder: null, queryCleanup: false } as const;

describe('ToolIndex name coverage', () => {
  it('adds the weight times the best score, scaled by the share of the name the query names', () => {
    const doc = { id: 'x.weather_forecast', name: 'weather_forecast', description: 'Daily outlook' };
    const without = new ToolIndex({ ...opts, nameCoverage: 0 });
    without.add([doc]);
    const withIt = new ToolIndex({ ...opts, nameCoverage: 0.1 });
    withIt.add([doc]);
    const whole = without.search('weather forecast')[0]!.score;
    expect(withIt.search('weather forecast')[0]!.score).toBeCloseTo(whole * 1.1, 5);
    // Half of the name (both words equally rare, so half the idf) → half the gain.
    const half = without.search('forecast')[0]!.score;
    expect(withIt.search('forecast')[0]!.score).toBeCloseTo(half * 1.05, 5);
    // A word the name lacks adds nothing.
    const none = without.search('outlook')[0]!.score;
    expect(withIt.search('outlook')[0]!.score).toBeCloseTo(none, 5);
  });

  it('raises nDCG@10 on the tuning half of the MCP tasks (the half it was tuned on)', () => {
    const file = new URL('../eval/mcp-tasks-tune.json', import.meta.url);
    const tasks = JSON.parse(readFileSync(file, 'utf8')).tasks;
    const docs = mcpDocuments();
    const score = (nameCoverage: number) => {
      const index = new ToolIndex({ nameCoverage, ranker: false }); // the hand-set blend it is part of
      index.add(docs);
      return evaluate((q, k) => index.search(q, { limit: k }), tasks).ndcg10;
    };
    expect(score(0.1)).toBeGreaterThan(score(0));
  }, 120_000);

  it('validates the weight', () => {
    expect(() => new ToolIndex({ nameCoverage: -0.1 })).toThrow(/nameCoverage/);
  });
});
