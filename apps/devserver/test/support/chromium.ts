// Finds Debian's `chromium` for the browser test, installing it with apt when it is missing and
// this process may (root, apt-get present). When no browser can be had, says why: the test is
// skipped with that reason, and only then.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** A browser to drive, or why there is none. */
export type ChromiumLookup = { path: string; installed: boolean } | { path: undefined; reason: string };

const _CANDIDATES = ['chromium', 'chromium-browser'];

function _which(name: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const path = r.stdout.trim();
  return r.status === 0 && path !== '' ? path : undefined;
}

/**
 * `CHROMIUM_PATH` when set, else `chromium` (or `chromium-browser`) on PATH, else Debian's
 * package installed with `apt-get install -y chromium` (bounded by `installTimeoutMs`).
 */
export function findChromium(installTimeoutMs = 600_000): ChromiumLookup {
  const forced = process.env.CHROMIUM_PATH;
  if (forced !== undefined && forced !== '') {
    return existsSync(forced)
      ? { path: forced, installed: false }
      : { path: undefined, reason: `CHROMIUM_PATH=${forced} does not exist` };
  }
  for (const name of _CANDIDATES) {
    const path = _which(name);
    if (path) return { path, installed: false };
  }
  if (!_which('apt-get'))
    return { path: undefined, reason: 'no chromium on PATH and no apt-get to install it' };
  if (process.getuid?.() !== 0) {
    return {
      path: undefined,
      reason:
        'no chromium on PATH, and apt-get needs root to install it (run: sudo apt-get install -y chromium)',
    };
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
      encoding: 'utf8',
      env,
      timeout: installTimeoutMs,
    });
  let r = install();
  if (r.status !== 0) {
    // A fresh machine may have no package lists yet.
    spawnSync('apt-get', ['update'], { encoding: 'utf8', env, timeout: installTimeoutMs });
    r = install();
  }
  const path = _which('chromium');
  if (r.status === 0 && path) return { path, installed: true };
  return {
    path: undefined,
    reason: `apt-get install -y chromium failed (exit ${r.status}${r.error ? `, ${r.error.message}` : ''}): ${(r.stderr ?? '').trim().split('\n').slice(-3).join(' / ')}`,
  };
}
