import { describe, expect, it } from 'vitest';
import { _cleanQuery, _fuseRankings, _splitClauses } from '../src/query-plan.js';
import { AGENT_JARGON, ToolIndex, tokenizeForSearch } from '../src/search.js';

describe('_cleanQuery', () => {
  it('drops agent boilerplate that stop words miss', () => {
    const cleaned = _cleanQuery('can you go ahead and restart the dyno right now', false);
    expect(tokenizeForSearch(cleaned)).toEqual(['restart', 'dyno']);
    expect(tokenizeForSearch(_cleanQuery("I'm trying to find the logs", false))).toEqual(['find', 'log']);
  });

  it('adds the words token shapes imply', () => {
    expect(_cleanQuery('tell #design the mockups are ready', false)).toMatch(/ channel$/);
    expect(_cleanQuery('scrape https://example.com/pricing', false)).toMatch(/ url page$/);
    expect(_cleanQuery('when was package.json last modified', false)).toMatch(/ file$/);
    expect(_cleanQuery('restart the dyno', false)).toBe('restart the dyno');
  });

  it('expands developer shorthand only when asked', () => {
    expect(_cleanQuery('show open PRs', true)).toContain('pull requests');
    expect(_cleanQuery('show open PRs', false)).not.toContain('pull');
    expect(_cleanQuery('cat the README', true)).toContain('read file');
    // Object keys of the prototype are not shorthand.
    expect(_cleanQuery('constructor toString', true)).toBe('constructor toString');
    expect(Object.isFrozen(AGENT_JARGON)).toBe(true);
  });
});

describe('_splitClauses', () => {
  it('splits a multi-step task at sentence ends and joins', () => {
    expect(_splitClauses('find the failing check on PR 42 and post a summary to #eng')).toEqual([
      'find the failing check on PR 42',
      'post a summary to #eng',
    ]);
    expect(
      _splitClauses('Read the CSV at data/sales.csv, run a quick analysis, then write it to summary.md'),
    ).toEqual(['Read the CSV at data/sales.csv', 'run a quick analysis', 'write it to summary.md']);
  });

  it('keeps short fragments with their clause and one-clause tasks whole', () => {
    expect(_splitClauses('list the tables and columns')).toEqual([]);
    expect(_splitClauses('kill pid 48213')).toEqual([]);
  });
});

describe('_fuseRankings', () => {
  it('sums weighted reciprocal ranks, ties by id', () => {
    const fused = _fuseRankings(
      [
        ['a', 'b'],
        ['b', 'c'],
      ],
      [2, 1],
      3,
    );
    expect(fused.map((h) => h.id)).toEqual(['b', 'a', 'c']);
    expect(fused[0]!.score).toBeCloseTo(2 / 5 + 1 / 4, 6);
    expect(_fuseRankings([['z'], ['y']], [1, 1], 3).map((h) => h.id)).toEqual(['y', 'z']);
  });
});

describe('ToolIndex query handling', () => {
  const docs = [
    {
      id: 'gh.list_pull_requests',
      name: 'list_pull_requests',
      description: 'List pull requests in a repository',
    },
    { id: 'gh.list_issues', name: 'list_issues', description: 'List issues in a repository' },
    { id: 'web.click', name: 'click', description: 'Click an element on the page' },
    { id: 'fs.read_file', name: 'read_file', description: 'Read the contents of a file' },
  ];

  it('finds pull requests from "PRs" with jargon, not without', () => {
    const on = new ToolIndex({ vectorWeight: 0, embedder: null });
    on.add(docs);
    expect(on.search('show me the open PRs')[0]?.id).toBe('gh.list_pull_requests');
    const off = new ToolIndex({ vectorWeight: 0, embedder: null, agentJargon: false });
    off.add(docs);
    expect(off.search('show me the open PRs').map((h) => h.id)).not.toContain('gh.list_pull_requests');
  });

  it('corrects a typo to a catalog word one edit away, only when enabled', () => {
    const on = new ToolIndex({ vectorWeight: 0, embedder: null });
    on.add(docs);
    expect(on.search('clik the button')[0]?.id).toBe('web.click');
    const off = new ToolIndex({ vectorWeight: 0, embedder: null, typoWeight: 0 });
    off.add(docs);
    expect(off.search('clik the button')).toEqual([]);
  });

  it('falls back to the raw query when cleanup leaves nothing', () => {
    const index = new ToolIndex({ vectorWeight: 0, embedder: null });
    index.add([{ id: 'x.quick', name: 'quick', description: 'A quick look' }]);
    expect(index.search('quick')[0]?.id).toBe('x.quick');
  });

  it('fuses clause rankings when clause fusion is on', () => {
    const index = new ToolIndex({ vectorWeight: 0, embedder: null, clauseFusion: true });
    index.add(docs);
    const ids = index
      .search('read the file notes.txt and then click the submit button', { limit: 2 })
      .map((h) => h.id);
    expect(ids.sort()).toEqual(['fs.read_file', 'web.click']);
    expect(() => new ToolIndex({ clauseFusion: { k: -1 } })).toThrow(/clauseFusion\.k/);
  });
});
