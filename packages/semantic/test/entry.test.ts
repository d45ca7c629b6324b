import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as search from '../src/search.js';

const SRC = join(import.meta.dirname, '..', 'src');

describe('package entry', () => {
  it('imports nothing but its two dependencies and its own files (floor 1, browser-safe)', () => {
    for (const file of readdirSync(SRC).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(SRC, file), 'utf8');
      for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+'([^']+)'/gms)) {
        const spec = m[1]!;
        expect(
          spec.startsWith('./') ||
            spec === 'minisearch' ||
            spec === 'minisearch/SearchableMap' ||
            spec === 'stemmer',
          `${file} imports ${spec}`,
        ).toBe(true);
      }
      expect(
        /\bprocess\.(?:env|exit|argv|std\w+|cwd)\b|\brequire\(|\bBuffer\./.test(text),
        `${file} uses a Node global`,
      ).toBe(false);
    }
  });
  it('exports only named, public things (no underscore helpers)', () => {
    for (const name of Object.keys(api)) expect(name.startsWith('_'), name).toBe(false);
    for (const name of Object.keys(search)) expect(name.startsWith('_'), name).toBe(false);
    expect(typeof api.parseToolName).toBe('function');
    expect(typeof search.ToolIndex).toBe('function');
    expect(typeof search.describeQuery).toBe('function');
  });
  it('keeps tool search off the root entry: index.ts never reaches the word vectors', () => {
    const reached = _relativeImportClosure('index.ts');
    expect(reached).toContain('annotate.ts');
    expect(reached).toContain('quality.ts');
    for (const file of [
      '_word-vectors.data.ts',
      'word-vectors.ts',
      '_synonyms.data.ts',
      'synonyms.ts',
      '_static-embeddings.data.ts',
      'static-embeddings.ts',
      'tool-index.ts',
      'tool-index-options.ts',
      '_inverted-index.ts',
      '_candidates.ts',
      '_vector-blend.ts',
      '_ranker-features.ts',
      'describe.ts',
    ]) {
      expect(reached, `index.ts reaches ${file}`).not.toContain(file);
    }
    expect(_relativeImportClosure('search.ts')).toContain('_word-vectors.data.ts');
    expect(_relativeImportClosure('search.ts')).toContain('_synonyms.data.ts');
    expect(_relativeImportClosure('search.ts')).toContain('_static-embeddings.data.ts');
  });
});

/** Every src file reached from `entry` through relative static imports and re-exports. */
function _relativeImportClosure(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(SRC, file), 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+'(\.\/[^']+)\.js'/gms)) {
      visit(`${m[1]!.slice(2)}.ts`);
    }
  };
  visit(entry);
  return [...seen];
}
