import { describe, expect, it } from 'vitest';
import { PlainBm25 } from '../scripts/baseline-bm25.mjs';
import { evaluate, halfOf } from '../scripts/retrieval-metrics.mjs';
import { domainOf, SemanticError } from '../src/index.js';
import { describeQuery, type ToolDocument, ToolIndex, tokenizeForSearch } from '../src/search.js';
import { loadRetrieval, loadServers, namespaceOf } from './_corpus.js';

function devDocuments(): ToolDocument[] {
  const docs: ToolDocument[] = [];
  for (const server of loadServers()) {
    const ns = namespaceOf(server.slug);
    for (const tool of server.tools) {
      docs.push({
        id: `${ns}.${tool.name}`,
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        namespace: ns,
      });
    }
  }
  return docs;
}

describe('tokenizeForSearch', () => {
  it('splits identifiers, keeps the compound, drops stop words, stems', () => {
    expect(tokenizeForSearch('read_file')).toEqual(['read', 'file', 'readfil']);
    expect(tokenizeForSearch('Can you list my GitHub repositories?')).toEqual([
      'list',
      'git',
      'hub',
      'github',
      'repositori',
    ]);
    expect(tokenizeForSearch('getUserById')).toEqual(['get', 'user', 'id', 'getuserbyid']);
    expect(tokenizeForSearch('the and of')).toEqual([]);
  });
});

describe('ToolIndex', () => {
  const docs = devDocuments();

  it('indexes the 672 dev tools and finds the obvious tool first', () => {
    const index = new ToolIndex();
    index.add(docs);
    expect(index.size).toBe(672);
    const cases: [string, RegExp][] = [
      [
        'read the contents of a file',
        /server_filesystem\.read_(text_|multiple_)?files?$|desktop_commander\.read_file$/,
      ],
      ['create a pull request on github', /server_(github|gitlab)\.create_(pull|merge)_request$/],
      ['post a message to a slack channel', /server_slack\.slack_post_message$/],
      ['take a screenshot of the page', /screenshot/],
      ['geocode an address to coordinates', /maps_geocode$/],
    ];
    for (const [query, expected] of cases) {
      const top = index.search(query, { limit: 3 });
      expect(top[0]?.id, query).toMatch(expected);
      expect(top[0]!.use_when.length, query).toBeGreaterThan(0);
    }
  });

  it('ranks deterministically: same scores in any insertion order, ties by id', () => {
    const a = new ToolIndex();
    a.add(docs);
    const b = new ToolIndex();
    b.add([...docs].reverse());
    for (const q of ['list files', 'delete', 'query the database', 'browser click button']) {
      expect(b.search(q, { limit: 20 }), q).toEqual(a.search(q, { limit: 20 }));
      const hits = a.search(q, { limit: 50 });
      for (let i = 1; i < hits.length; i++) {
        const [p, c] = [hits[i - 1]!, hits[i]!];
        expect(p.score > c.score || (p.score === c.score && p.id < c.id), `${q} @${i}`).toBe(true);
      }
    }
  });

  it('removes live: scores after remove equal those of a fresh index', () => {
    const live = new ToolIndex();
    live.add(docs);
    const gone = docs.filter((d) => d.id.includes('server_github'));
    expect(live.remove([...gone.map((d) => d.id), 'no.such.tool'])).toBe(gone.length);
    const fresh = new ToolIndex();
    fresh.add(docs.filter((d) => !d.id.includes('server_github')));
    for (const q of ['create an issue', 'search code', 'list commits']) {
      expect(live.search(q, { limit: 10 }), q).toEqual(fresh.search(q, { limit: 10 }));
    }
    live.add(gone);
    expect(live.size).toBe(672);
  });

  it('refuses duplicate ids and bad arguments with SemanticError', () => {
    const index = new ToolIndex();
    index.add([{ id: 'a', name: 'read_file' }]);
    expect(() => index.add([{ id: 'a', name: 'x' }])).toThrow(SemanticError);
    expect(() =>
      index.add([
        { id: 'b', name: 'x' },
        { id: 'b', name: 'y' },
      ]),
    ).toThrow(/already indexed/);
    expect(index.size).toBe(1);
    expect(() => index.search('x', { limit: -1 })).toThrow(/non-negative integer/);
    expect(index.search('the of and')).toEqual([]);
    expect(() => new ToolIndex({ bm25: { b: 2 } })).toThrow(/bm25\.b: expected a number from 0 to 1, got 2/);
    expect(() => new ToolIndex({ fieldBoosts: { name: -1 } })).toThrow(/fieldBoosts\.name/);
  });

  it('filters by domain and answers describeQuery with relevance and use_when', () => {
    const index = new ToolIndex();
    index.add(docs);
    const fs = domainOf(namespaceOf('modelcontextprotocol__server-filesystem'));
    const matches = describeQuery(index, { intent: 'read a file', domain: fs, limit: 5 });
    expect(matches.length).toBe(5);
    expect(matches[0]!.relevance).toBe(1);
    expect(matches.every((m) => m.kind.includes(`.${fs}.`))).toBe(true);
    expect(matches[0]!.kind).toMatch(/\.read_/);
    for (let i = 1; i < matches.length; i++)
      expect(matches[i]!.relevance).toBeLessThanOrEqual(matches[i - 1]!.relevance);
    const structured = describeQuery(index, {
      domain: fs,
      intent_verbs: ['delete'],
      data_subjects: ['file'],
    });
    expect(structured.length).toBeGreaterThan(0);
    const browse = describeQuery(index, { domain: fs, limit: 100 });
    expect(browse.map((m) => m.kind)).toEqual([...browse.map((m) => m.kind)].sort());
    expect(browse.length).toBe(14);
    expect(() => describeQuery(index, { limit: 0 })).toThrow(SemanticError);
    expect(() => describeQuery(index, { intent_verbs: 'read' as unknown as string[] })).toThrow(
      /array of strings/,
    );
  });
});

describe('retrieval on a bounded sample of metatool (CI)', () => {
  for (const [file, size] of [
    ['metatool-single.json', 500],
    ['metatool-multi.json', 497],
  ] as const) {
    it(`${file}: ToolIndex beats plain BM25 on ${size} queries`, () => {
      const set = loadRetrieval(file);
      const docs = set.corpus.map((t) => ({ id: t.id, name: t.name, description: t.description }));
      // A fixed, spread sample: the queries of hash half B (held out while choosing weights), every k-th.
      const pool = set.queries.filter((q) => halfOf(q.id) === 1 || file.includes('multi'));
      const step = Math.max(1, Math.floor(pool.length / size));
      const sample = pool.filter((_, i) => i % step === 0).slice(0, size);
      const index = new ToolIndex();
      index.add(docs);
      const base = new PlainBm25();
      base.add(docs);
      const ours = evaluate((q, k) => index.search(q, { limit: k }), sample);
      const theirs = evaluate((q, k) => base.search(q, { limit: k }), sample);
      expect(ours.queries).toBe(sample.length);
      expect(ours.r5, `${file} R@5 ours ${ours.r5} vs baseline ${theirs.r5}`).toBeGreaterThan(theirs.r5 + 3);
      expect(ours.ndcg10, `${file} nDCG@10 ours ${ours.ndcg10} vs baseline ${theirs.ndcg10}`).toBeGreaterThan(
        theirs.ndcg10,
      );
      // The word vectors earn their place: the blend beats the same index without them.
      const lexicalOnly = new ToolIndex({ vectorWeight: 0, embedder: null });
      lexicalOnly.add(docs);
      const lexical = evaluate((q, k) => lexicalOnly.search(q, { limit: k }), sample);
      expect(ours.r5, `${file} R@5 with vectors ${ours.r5} vs lexical only ${lexical.r5}`).toBeGreaterThan(
        lexical.r5,
      );
    });
  }
});
