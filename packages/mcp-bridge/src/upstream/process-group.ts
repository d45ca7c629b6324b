/**
 * Process groups of stdio children: each child leads a group of its own, so one signal reaches
 * everything it started (a wrapper script's grandchildren included), and the groups still alive
 * are killed when our process exits. See docs/architecture.md, "Upstream supervision".
 * @module
 */

/** Process groups exist on POSIX systems only; elsewhere the child itself is signalled. */
export const _PROCESS_GROUPS = process.platform !== 'win32';

/** Leaders of the groups that may still have members, killed on exit. */
const _live = new Set<number>();

/** The `exit` listener: synchronous, as `exit` listeners must be; one for every group. */
function _killLive(): void {
  for (const pid of _live) _signalGroup(pid, 'SIGKILL');
}

/**
 * Sends `signal` (or 0, to probe) to the group led by `pid`. False when no process of the group
 * is left (`ESRCH`) or it cannot be signalled.
 */
export function _signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(_PROCESS_GROUPS ? -pid : pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Kills the group led by `pid` with `SIGKILL` if our process exits before {@link _untrackGroup}.
 * One `exit` listener serves every group; it is removed when no group is left.
 */
export function _trackGroup(pid: number): void {
  if (_live.size === 0) process.on('exit', _killLive);
  _live.add(pid);
}

/** The group led by `pid` is ended: our exit no longer needs to kill it. */
export function _untrackGroup(pid: number): void {
  if (_live.delete(pid) && _live.size === 0) process.off('exit', _killLive);
}

/** How many groups our exit would kill (for tests and status). */
export function _liveGroupCount(): number {
  return _live.size;
}
