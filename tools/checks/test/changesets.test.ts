// Every changeset parses as `changeset version` reads it: YAML front matter between two `---`
// lines, one `"package": patch|minor|major` line per package, each naming a published package. A
// formatter that turns the front matter into a Markdown heading would break the release.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedPackages, REPO_ROOT } from './_workspace.js';

const DIR = join(REPO_ROOT, '.changeset');
const NAMES = new Set(publishedPackages().map((p) => p.manifest.name));
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.md') && f !== 'README.md');

describe.each(FILES)('.changeset/%s', (file) => {
  it('has front matter naming published packages and a bump, then a summary', () => {
    const text = readFileSync(join(DIR, file), 'utf8');
    const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(text);
    expect(m, 'front matter between two "---" lines at the top').not.toBeNull();
    const lines = m![1]!.split(/\r?\n/).filter((l) => l.trim() !== '');
    expect(lines.length, 'at least one package').toBeGreaterThan(0);
    for (const line of lines) {
      const entry = /^["']?(@?[\w./-]+)["']?:\s*(patch|minor|major)\s*$/.exec(line);
      expect(entry, `"${line}": expected "<package>": patch | minor | major`).not.toBeNull();
      expect(NAMES.has(entry![1]!), `${entry![1]} is not a published package`).toBe(true);
    }
    expect(m![2]!.trim().length, 'a summary').toBeGreaterThan(0);
  });
});
