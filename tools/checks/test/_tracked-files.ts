// The files git tracks in the repository, as a clone would hold them.
import { execFileSync } from 'node:child_process';

/** Every tracked file of the repository at `root`, `/`-separated, relative to `root`, sorted. */
export function trackedFiles(root: string): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter(Boolean)
    .sort();
}
