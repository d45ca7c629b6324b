import { describe, expect, it } from 'vitest';
import { annotateTool, annotateTools, domainOf, MAX_RELATED_SCHEMAS } from '../src/index.js';
import { loadServers, namespaceOf } from './_corpus.js';

const NS = 'com.acme.filesystem';
const GOLDEN = [
  { name: 'read_file', description: 'Read the contents of a file at the specified path' },
  { name: 'write_file', description: 'Create a new file or overwrite an existing file with new content' },
  { name: 'list_directory', description: 'List the files and directories at a path' },
];

describe('annotateTool — golden example (docs/design.md §7, normative)', () => {
  for (const [label, tools] of [
    ['with descriptions', GOLDEN],
    ['names only', GOLDEN.map((t) => ({ name: t.name }))],
  ] as const) {
    it(`read_file beside write_file and list_directory, ${label}`, () => {
      const a = annotateTool(tools[0]!, tools, NS);
      expect(a.intent_verbs).toEqual(expect.arrayContaining(['read', 'get', 'fetch', 'retrieve']));
      expect(a.data_subjects).toContain('file');
      expect(a.data_subjects).toContain('files');
      expect(a.domain).toBe('filesystem');
      expect(a.related_schemas).toEqual(
        expect.arrayContaining(['com.acme.filesystem.write_file', 'com.acme.filesystem.list_directory']),
      );
      expect(a.do_not_use_when).toBe(
        'Agent wants to list or find available files — use com.acme.filesystem.list_directory instead',
      );
      expect(a.use_when).toMatch(/^Agent needs to read /);
      expect(a.auto_generated).toBe(true);
    });
  }
  it('handle_thing ("Handles the thing") is low quality', () => {
    const tools = [...GOLDEN, { name: 'handle_thing', description: 'Handles the thing' }];
    const a = annotateTool(tools[3]!, tools, NS);
    expect(a.description_quality_score).toBe(0.2);
    expect(a.related_schemas).toEqual([]);
  });
});

describe('annotateTool', () => {
  it('derives the domain from the namespace', () => {
    expect(domainOf('com.acme.filesystem')).toBe('filesystem');
    expect(domainOf('com.salesforce.crm')).toBe('crm');
    expect(domainOf('')).toBe('');
  });

  it('points a deprecated tool at its replacement', () => {
    const tools = [
      { name: 'read_file', description: 'Read a file. DEPRECATED: Use read_text_file instead.' },
      { name: 'read_text_file', description: 'Read a text file' },
    ];
    expect(annotateTool(tools[0]!, tools, NS).do_not_use_when).toBe(
      'Always: this tool is deprecated — use com.acme.filesystem.read_text_file instead',
    );
  });

  it('lets overrides replace fields and then reports auto_generated: false', () => {
    const overrides = {
      use_when: 'Agent needs to validate and submit a data record for processing',
      intent_verbs: ['validate', 'process', 'submit'],
      data_subjects: ['record', 'data'],
    };
    const a = annotateTool({ name: 'handle_thing', description: 'Handles the thing' }, [], NS, overrides);
    expect(a.use_when).toBe(overrides.use_when);
    expect(a.intent_verbs).toEqual(overrides.intent_verbs);
    expect(a.data_subjects).toEqual(overrides.data_subjects);
    expect(a.domain).toBe('filesystem');
    expect(a.auto_generated).toBe(false);
    expect(annotateTool({ name: 'x' }, [], NS, {}).auto_generated).toBe(true);
  });

  it('annotates all 672 real tools; annotateTools equals annotateTool and ignores sibling order', () => {
    let total = 0;
    for (const server of loadServers()) {
      const ns = namespaceOf(server.slug);
      const all = annotateTools(server.tools, ns);
      const reversed = annotateTools([...server.tools].reverse(), ns).reverse();
      expect(reversed, server.file).toEqual(all);
      server.tools.forEach((tool, i) => {
        total++;
        const where = `${server.file}: ${tool.name}`;
        const a = all[i]!;
        if (i < 3) expect(annotateTool(tool, server.tools, ns), where).toEqual(a);
        expect(a.auto_generated, where).toBe(true);
        expect(a.domain, where).toBe(domainOf(ns));
        expect(a.use_when.length, where).toBeGreaterThan(0);
        expect(a.data_subjects.length, where).toBeGreaterThan(0);
        expect(Math.round(a.description_quality_score * 5) / 5, where).toBe(a.description_quality_score);
        expect(a.related_schemas.length, where).toBeLessThanOrEqual(MAX_RELATED_SCHEMAS);
        for (const kind of a.related_schemas) {
          expect(kind.startsWith(`${ns}.`), where).toBe(true);
          expect(kind, where).not.toBe(`${ns}.${tool.name}`);
        }
      });
    }
    expect(total).toBe(672);
  });

  it('reads a tool again when its description changed (no stale memo)', () => {
    const tool = { name: 'read_file', description: 'Read the contents of a file at the specified path' };
    const siblings = [tool, { name: 'list_directory' }];
    expect(annotateTool(tool, siblings, NS).description_quality_score).toBe(0.6);
    tool.description = 'Handles the thing';
    const again = annotateTool(tool, siblings, NS);
    expect(again.description_quality_score).toBe(0.2);
    expect(again.use_when).toBe('Agent needs to handle the thing');
  });

  it('applies per-tool overrides in annotateTools', () => {
    const [a, b] = annotateTools(GOLDEN, NS, { write_file: { use_when: 'Agent needs to save text' } });
    expect(a!.auto_generated).toBe(true);
    expect(b!.use_when).toBe('Agent needs to save text');
    expect(b!.auto_generated).toBe(false);
  });
});
