import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// STYLE.md habit 3: the root entry loads in a browser: no Node builtin, only declared dependencies.
describe('built root entry', () => {
  it('imports no node: builtin', async () => {
    const entry = join(import.meta.dirname, '../dist/index.js');
    expect(existsSync(entry), 'dist/index.js missing: build the package before testing').toBe(true);
    const code = readFileSync(entry, 'utf8');
    const specifiers = [...code.matchAll(/^import\s[^'"]*["']([^"']+)["']/gm)].map((m) => m[1] as string);
    expect(specifiers.length).toBeGreaterThan(0);
    for (const s of specifiers)
      expect(
        ['@xprotocol/crypto', '@xprotocol/semantic', '@xprotocol/translate', '@xprotocol/wire'].includes(s),
        s,
      ).toBe(true);
    expect(code).not.toMatch(/\brequire\(|process\.|Buffer\./);
    const mod = (await import(entry)) as Record<string, unknown>;
    expect(typeof mod.Registry).toBe('function');
  });
});
