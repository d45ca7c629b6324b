import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// STYLE.md habit 3: the root entry loads in a browser. The built entry must import no Node
// builtin; its only imports are the declared dependencies (and their subpaths).
describe('built root entry', () => {
  const entry = join(import.meta.dirname, '../dist/index.js');
  it('exists (run `pnpm --filter @xprotocol/translate run build` first) and imports no node: builtin', async () => {
    expect(existsSync(entry), 'dist/index.js missing: build the package before testing').toBe(true);
    const code = readFileSync(entry, 'utf8');
    const specifiers = [...code.matchAll(/^import\s[^'"]*["']([^"']+)["']/gm)].map((m) => m[1] as string);
    expect(specifiers.length).toBeGreaterThan(0);
    for (const s of specifiers) {
      expect(s.startsWith('node:'), s).toBe(false);
      expect(
        [
          '@xprotocol/semantic',
          'ajv',
          'ajv-draft-04',
          'ajv-formats',
          '@xprotocol/crypto',
          '@xprotocol/gbnf',
          '@xprotocol/json-schema-vocabulary',
          '@xprotocol/wire',
          're2js',
        ].some((d) => s === d || s.startsWith(`${d}/`)),
        s,
      ).toBe(true);
    }
    expect(code).not.toMatch(/\brequire\(|process\.|Buffer\./);
    const mod = (await import(entry)) as Record<string, unknown>;
    expect(typeof mod.translateSource).toBe('function');
  });
});
