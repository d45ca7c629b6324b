import { describe, expect, it } from 'vitest';
import { SchemaSearch, toolSearchDocument } from '../src/discovery/schema-search.js';

describe('toolSearchDocument', () => {
  it('carries the title, schema, namespace and server info into the search document', () => {
    const doc = toolSearchDocument(
      'k.list',
      { name: 'list', annotations: { title: 'List widgets' }, inputSchema: { type: 'object' } },
      'k',
      { name: 'kappa', instructions: 'Use for widgets' },
    );
    expect(doc).toEqual({
      id: 'k.list',
      name: 'list',
      title: 'List widgets',
      description: undefined,
      inputSchema: { type: 'object' },
      namespace: 'k',
      server: { name: 'kappa', instructions: 'Use for widgets' },
    });
    expect(
      toolSearchDocument('x', { name: 'x', title: 'Own', annotations: { title: 'Ann' } }, undefined).title,
    ).toBe('Own');
  });

  it('lets SchemaSearch find a tool by its server title and enum values', () => {
    const search = new SchemaSearch();
    search.sync([
      {
        document: toolSearchDocument('a.run', { name: 'run', description: 'Run a job' }, 'a', {
          title: 'Quasar Jobs',
        }),
        fingerprint: '1',
      },
      {
        document: toolSearchDocument(
          'b.run',
          {
            name: 'run',
            description: 'Run a job',
            inputSchema: { type: 'object', properties: { mode: { type: 'string', enum: ['nebula'] } } },
          },
          'b',
        ),
        fingerprint: '1',
      },
    ]);
    expect(search.search('quasar job', 2)[0]?.id).toBe('a.run');
    expect(search.search('nebula', 2).map((h) => h.id)).toEqual(['b.run']);
  });

  it('indexes on the first search what was synced before, then follows later syncs', () => {
    const search = new SchemaSearch();
    const entry = (id: string, description: string, fingerprint = '1') => ({
      document: toolSearchDocument(id, { name: id, description }, undefined),
      fingerprint,
    });
    search.sync([entry('w.old', 'Draw a walrus')]);
    search.sync([entry('w.a', 'Paint a pelican'), entry('w.b', 'Sketch a heron')]);
    expect(search.size).toBe(2);
    expect(search.search('walrus', 5)).toEqual([]);
    expect(search.search('pelican', 5).map((h) => h.id)).toEqual(['w.a']);
    // After the index exists: a changed fingerprint replaces, a missing id removes.
    search.sync([entry('w.a', 'Paint a flamingo', '2')]);
    expect(search.search('pelican', 5)).toEqual([]);
    expect(search.search('flamingo', 5).map((h) => h.id)).toEqual(['w.a']);
    expect(search.search('heron', 5)).toEqual([]);
  });

  it('finds only the visible documents when given a filter, however the hidden ones rank', () => {
    const search = new SchemaSearch();
    const entry = (id: string, description: string) => ({
      document: toolSearchDocument(id, { name: id, description }, undefined),
      fingerprint: '1',
    });
    search.sync([
      entry('b.paint_pelican', 'Paint a pelican in oil'),
      entry('b.paint_pelican_fast', 'Paint a pelican quickly'),
      entry('a.sketch_pelican', 'Sketch a pelican in pencil'),
    ]);
    const all = search.search('paint a pelican', 2).map((h) => h.id);
    expect(all).toEqual(['b.paint_pelican', 'b.paint_pelican_fast']);
    // The two best are hidden: the next one is found, not an empty answer.
    const onlyA = (id: string) => id.startsWith('a.');
    expect(search.search('paint a pelican', 2, onlyA).map((h) => h.id)).toEqual(['a.sketch_pelican']);
    expect(search.search('paint a pelican', 2, () => true).map((h) => h.id)).toEqual(all);
    expect(search.search('paint a pelican', 2, () => false)).toEqual([]);
  });
});
