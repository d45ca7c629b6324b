#!/usr/bin/env node
// Copies the root LICENSE into every published package folder, so each tarball carries the licence
// text (npm packs a package's own LICENSE, never the repository's). `node scripts/sync-license.mjs`
// after changing LICENSE or adding a package; tools/checks/test/licence.test.ts fails until then.
import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
for (const group of ['packages', 'apps']) {
  for (const name of readdirSync(join(root, group))) {
    const manifest = join(root, group, name, 'package.json');
    if (!existsSync(manifest) || JSON.parse(readFileSync(manifest, 'utf8')).private === true) continue;
    copyFileSync(join(root, 'LICENSE'), join(root, group, name, 'LICENSE'));
    console.log(`${group}/${name}/LICENSE`);
  }
}
