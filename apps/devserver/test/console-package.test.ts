// The console's pages ship in the package: `pnpm pack` (what `pnpm publish` uploads) holds every
// file of console/ that the pages load, and the server resolves them beside dist/.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONSOLE_ASSETS } from '../src/console-server.js';

const PACKAGE = join(import.meta.dirname, '..');
const OUT = mkdtempSync(join(tmpdir(), 'xp-devserver-pack-'));
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

/** pnpm: the one running this test when there is one (npm_execpath), else the one on PATH. */
function pnpm(args: string[]): void {
  const execPath = process.env.npm_execpath;
  const [command, argv] =
    execPath && /pnpm/.test(execPath) ? [process.execPath, [execPath, ...args]] : ['pnpm', args];
  const r = spawnSync(command, argv, { cwd: PACKAGE, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`pnpm ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
}

describe('the console in the package', () => {
  it('resolves its assets in the package folder console/', () => {
    expect(CONSOLE_ASSETS).toBe(`${join(PACKAGE, 'console')}/`);
  });

  it('pnpm pack ships every console file', () => {
    pnpm(['pack', '--pack-destination', OUT]);
    const tarball = readdirSync(OUT).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();
    const listed = execFileSync('tar', ['-tzf', join(OUT, tarball!)], { encoding: 'utf8' }).split('\n');
    const shipped = readdirSync(join(PACKAGE, 'console'));
    expect(shipped).toContain('index.html');
    for (const file of shipped) expect(listed, file).toContain(`package/console/${file}`);
  }, 130_000);
});
