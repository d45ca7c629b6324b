// A query that asks for the opposite of what a tool does ranks it lower (ToolIndexOptions.
// verbConflict): on the recorded tools of server-filesystem, "save text into a file" finds
// write_file first, where read_text_file used to win on the words "text" and "file". A query of
// several kinds of action, or one that does not start with a verb, is not affected.
import { describe, expect, it } from 'vitest';
import { SemanticError } from '../src/index.js';
import { type ToolDocument, ToolIndex } from '../src/search.js';
import { loadServers, namespaceOf } from './_corpus.js';

/** The recorded tools of one server, as the console's search indexes them. */
function toolsOf(slug: string): ToolDocument[] {
  const server = loadServers().find((s) => s.slug === slug || s.file === `${slug}.json`);
  if (!server) throw new Error(`no recorded server ${slug}`);
  const ns = namespaceOf(server.slug);
  return server.tools.map((tool) => ({
    id: `${ns}.${tool.name}`,
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    namespace: ns,
  }));
}

const top = (index: ToolIndex, query: string, n = 3) =>
  index.search(query, { limit: n }).map((hit) => hit.id.split('.').pop());

describe('verbConflict', () => {
  const filesystem = toolsOf('modelcontextprotocol__server-filesystem');

  it('"save text into a file" finds write_file first on server-filesystem (and did not without it)', () => {
    const index = new ToolIndex();
    index.add(filesystem);
    expect(top(index, 'save text into a file')[0]).toBe('write_file');
    const without = new ToolIndex({ verbConflict: 0 });
    without.add(filesystem);
    expect(top(without, 'save text into a file')[0]).toBe('read_text_file');
  });

  it('leaves a reading query on the readers, and a query of several kinds of action alone', () => {
    const index = new ToolIndex();
    index.add(filesystem);
    expect(top(index, 'read the text of a file')[0]).toMatch(/^read_(text_)?file$/);
    const without = new ToolIndex({ verbConflict: 0 });
    without.add(filesystem);
    for (const query of ['read config.json and write a copy to backup.json', 'what is in notes.txt']) {
      expect(top(index, query, 5), query).toEqual(top(without, query, 5));
    }
  });

  it('refuses a value outside 0..1', () => {
    expect(() => new ToolIndex({ verbConflict: 1.5 })).toThrow(SemanticError);
    expect(() => new ToolIndex({ verbConflict: -0.1 })).toThrow(
      'verbConflict: expected a number from 0 to 1, got -0.1',
    );
  });
});
