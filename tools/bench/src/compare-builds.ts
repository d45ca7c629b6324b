/**
 * Other builds of the adapter to race beside this one (`BENCH_XP_COMPARE`,
 * `BENCH_GATEWAY_COMPARE`, `BENCH_MEMORY_COMPARE`): each a `bin.js` of a copy of the workspace at another commit, built.
 * @module
 */
import { basename, dirname, resolve } from 'node:path';

/** One other build: its adapter `bin.js` and a short label for the peer's name. */
export interface OtherBuild {
  readonly bin: string;
  readonly label: string;
}

/**
 * The builds named in the environment variable `variable`: comma-separated paths of adapter
 * `bin.js` files, resolved here (the adapters run in the suite's temporary directory).
 */
export function otherBuilds(variable: string): OtherBuild[] {
  return (process.env[variable] ?? '')
    .split(',')
    .filter((bin) => bin !== '')
    .map((bin) => resolve(bin))
    .map((bin) => ({ bin, label: _label(bin) }));
}

/** `…/<workspace>/apps/adapter/dist/bin.js` → `<workspace>`; any other path as it is. */
function _label(bin: string): string {
  const dist = dirname(bin);
  const app = dirname(dist);
  return basename(dist) === 'dist' && basename(dirname(app)) === 'apps'
    ? basename(dirname(dirname(app)))
    : bin;
}
