import { translateSource } from '@xprotocol/translate';
import { describe, expect, it } from 'vitest';
import { MemoryVersionStore, Registry, RegistryError, type VersionStore } from '../src/index.js';
import { recorded, tool, translate } from './_fixtures.js';

const NS = 'com.acme.fs';
const READ = tool('read_file', 'Read the contents of a file at the specified path', {
  type: 'object',
  properties: { path: { type: 'string' } },
  required: ['path'],
});
const WRITE = tool('write_file', 'Write a file', {
  type: 'object',
  properties: { path: { type: 'string' }, content: { type: 'string' } },
  required: ['path', 'content'],
});
const LIST = tool('list_directory', 'List a directory', {
  type: 'object',
  properties: { path: { type: 'string' } },
});

describe('Registry (docs/design.md §10)', () => {
  it('maps a resource-template kind to its source, template name and URI template', async () => {
    const registry = new Registry();
    const contracts = translateSource({
      name: 'notes',
      namespace: NS,
      tools: [],
      resourceTemplates: [{ name: 'note', uriTemplate: 'notes://{title}' }],
      adapterVersion: '0.1.0',
    }).contracts;
    await registry.refreshSource('notes', contracts);
    expect(registry.origin('com.acme.fs.resource.note')).toEqual({
      source: 'notes',
      resourceTemplate: 'note',
      uriTemplate: 'notes://{title}',
    });
  });
  it('maps kind → contract, kind → source + tool, and (source, tool) → kind', async () => {
    const registry = new Registry();
    const diff = await registry.refreshSource(
      'filesystem',
      translate('filesystem', NS, [READ, WRITE], [{ name: 'summarize' }]),
    );
    expect(diff.added).toEqual([
      { kind: 'com.acme.fs.prompt.summarize', version: '1.0.0' },
      { kind: 'com.acme.fs.read_file', version: '1.0.0' },
      { kind: 'com.acme.fs.write_file', version: '1.0.0' },
    ]);
    expect(diff.dirty).toBe(true);
    expect(registry.get('com.acme.fs.read_file')?.version).toBe('1.0.0');
    expect(registry.origin('com.acme.fs.read_file')).toEqual({ source: 'filesystem', tool: 'read_file' });
    expect(registry.origin('com.acme.fs.prompt.summarize')).toEqual({
      source: 'filesystem',
      prompt: 'summarize',
    });
    expect(registry.kindOfTool('filesystem', 'write_file')).toBe('com.acme.fs.write_file');
    expect(registry.kindOfTool('other', 'write_file')).toBeUndefined();
    expect(registry.get('com.acme.fs.nope')).toBeUndefined();
    expect(registry.contracts().map((c) => c.kind)).toEqual(diff.added.map((a) => a.kind));
    expect(registry.sources()).toEqual(['filesystem']);
  });

  it('refresh diff: added, removed, changed with Appendix B bumps; unchanged is not dirty', async () => {
    const registry = new Registry();
    await registry.refreshSource('filesystem', translate('filesystem', NS, [READ, WRITE]));
    const same = await registry.refreshSource('filesystem', translate('filesystem', NS, [WRITE, READ]));
    expect(same).toMatchObject({ added: [], removed: [], changed: [], dirty: false });

    const readV2 = {
      ...READ,
      inputSchema: {
        ...READ.inputSchema,
        properties: { path: { type: 'string' }, encoding: { type: 'string' } },
      },
    };
    const writeV2 = {
      ...WRITE,
      inputSchema: { ...WRITE.inputSchema, properties: { path: { type: 'string' } }, required: ['path'] },
    };
    const diff = await registry.refreshSource(
      'filesystem',
      translate('filesystem', NS, [readV2, writeV2, LIST]),
    );
    expect(diff.added).toEqual([{ kind: 'com.acme.fs.list_directory', version: '1.0.0' }]);
    expect(diff.changed.map(({ kind, from, to, bump }) => ({ kind, from, to, bump }))).toEqual([
      { kind: 'com.acme.fs.read_file', from: '1.0.0', to: '1.1.0', bump: 'minor' },
      { kind: 'com.acme.fs.write_file', from: '1.0.0', to: '2.0.0', bump: 'major' },
    ]);
    expect(diff.changed[1]?.reasons).toContain('major: payload /properties/content: property removed');

    const gone = await registry.refreshSource('filesystem', translate('filesystem', NS, [LIST]));
    expect(gone.removed).toEqual([
      { kind: 'com.acme.fs.read_file', version: '1.1.0' },
      { kind: 'com.acme.fs.write_file', version: '2.0.0' },
    ]);
    expect(registry.kindOfTool('filesystem', 'read_file')).toBeUndefined();
    // list_directory's semantic annotations named its removed siblings (related schemas): a patch
    expect(gone.changed).toMatchObject([
      { kind: 'com.acme.fs.list_directory', from: '1.0.0', to: '1.0.1', bump: 'patch' },
    ]);
    expect(gone.changed[0]?.reasons).toContain('patch: semantic changed');
    const description = await registry.refreshSource(
      'filesystem',
      translate('filesystem', NS, [{ ...LIST, description: 'List the entries of a directory' }]),
    );
    expect(description.changed).toMatchObject([
      { kind: 'com.acme.fs.list_directory', from: '1.0.1', to: '1.0.2', bump: 'patch' },
    ]);
  });

  it('versions persist in the VersionStore across registries (a restart keeps them; a removed kind continues)', async () => {
    const store = new MemoryVersionStore();
    const first = new Registry({ versionStore: store });
    await first.refreshSource('filesystem', translate('filesystem', NS, [READ]));
    await first.refreshSource(
      'filesystem',
      translate('filesystem', NS, [{ ...READ, description: 'Read a file by path' }]),
    );
    expect(first.get('com.acme.fs.read_file')?.version).toBe('1.0.1');
    await first.removeSource('filesystem');
    expect(first.size).toBe(0);

    const restarted = new Registry({ versionStore: store });
    const diff = await restarted.refreshSource(
      'filesystem',
      translate('filesystem', NS, [{ ...READ, description: 'Read a file by path' }]),
    );
    expect(diff.added).toEqual([{ kind: 'com.acme.fs.read_file', version: '1.0.1' }]);
    const again = new Registry({ versionStore: store });
    const bumped = await again.refreshSource(
      'filesystem',
      translate('filesystem', NS, [
        {
          ...READ,
          inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path', 'x'] },
        },
      ]),
    );
    expect(bumped.added).toEqual([{ kind: 'com.acme.fs.read_file', version: '2.0.0' }]);
    expect(store.records().map((r) => [r.kind, r.version])).toEqual([['com.acme.fs.read_file', '2.0.0']]);
  });

  it('works with an asynchronous store, one refresh at a time', async () => {
    const map = new Map<string, { kind: string; version: string; contract: string }>();
    const store: VersionStore = {
      get: async (kind) => map.get(kind),
      put: async (record) => {
        await new Promise((r) => setTimeout(r, 1));
        map.set(record.kind, record);
      },
    };
    const registry = new Registry({ versionStore: store });
    const [a, b] = await Promise.all([
      registry.refreshSource('filesystem', translate('filesystem', NS, [READ])),
      registry.refreshSource(
        'filesystem',
        translate('filesystem', NS, [{ ...READ, description: 'Read one file' }]),
      ),
    ]);
    expect(a.added).toHaveLength(1);
    expect(b.changed).toMatchObject([{ from: '1.0.0', to: '1.0.1' }]);
  });

  it('a kind served by another source is a conflict, not a takeover', async () => {
    const registry = new Registry();
    await registry.refreshSource('a', translate('a', NS, [READ]));
    const diff = await registry.refreshSource('b', translate('b', NS, [READ, WRITE]));
    expect(diff.conflicts).toEqual([{ kind: 'com.acme.fs.read_file', owner: 'a' }]);
    expect(diff.added.map((x) => x.kind)).toEqual(['com.acme.fs.write_file']);
    expect(registry.origin('com.acme.fs.read_file')?.source).toBe('a');
  });

  it('refuses a bad source name, invalid kinds and duplicate kinds', async () => {
    const registry = new Registry();
    await expect(registry.refreshSource('', [])).rejects.toThrow(RegistryError);
    const [c] = translate('s', NS, [READ]);
    if (c === undefined) throw new Error('no contract');
    await expect(registry.refreshSource('s', [c, c])).rejects.toThrow(/appears twice/);
    await expect(registry.refreshSource('s', [{ ...c, kind: 'bad kind' }])).rejects.toThrow(/valid kinds/);
    // a failed refresh does not block the next one
    expect((await registry.refreshSource('s', [c])).added).toHaveLength(1);
  });

  it('a store failure surfaces as VERSION_STORE', async () => {
    const registry = new Registry({
      versionStore: {
        get: () => {
          throw new Error('disk gone');
        },
        put: () => undefined,
      },
    });
    await expect(registry.refreshSource('s', translate('s', NS, [READ]))).rejects.toMatchObject({
      code: 'VERSION_STORE',
    });
  });

  it('holds a real server (modelcontextprotocol__server-filesystem.json)', async () => {
    const { tools } = recorded('modelcontextprotocol__server-filesystem.json');
    const registry = new Registry();
    const diff = await registry.refreshSource('filesystem', translate('filesystem', 'com.test.fs', tools));
    expect(diff.added).toHaveLength(14);
    expect(registry.kindOfTool('filesystem', 'read_text_file')).toBe('com.test.fs.read_text_file');
  });
});
