import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

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
    expect(typeof api.parseToolName).toBe('function');
    expect(typeof api.ToolIndex).toBe('function');
  });
});
