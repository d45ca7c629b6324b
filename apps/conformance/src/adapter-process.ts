/**
 * Starts an adapter under test as a child process (`CMD ARGS start --config FILE`) and waits for
 * its `{"event":"ready",…}` log line on stderr (docs/cli.md, `start`).
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A running adapter. */
export interface AdapterProcess {
  readonly child: ChildProcess;
  /** Every stderr line so far. */
  readonly logs: string[];
  /**
   * SIGTERM to its process group, SIGKILL after 10 s; resolves once every process of it that holds
   * its stderr (a wrapper such as `npx` and the adapter it started) has exited, or at that bound.
   */
  stop(): Promise<void>;
}

/** Starts `argv start --config config` in `cwd`; rejects with its logs when it exits or is not ready in `timeoutMs`. */
export async function startAdapter(
  argv: readonly string[],
  config: string,
  cwd: string,
  timeoutMs = 60_000,
): Promise<AdapterProcess> {
  const [command, ...args] = argv;
  if (!command) throw new Error('--adapter-command: expected a command, got nothing');
  // Its own process group: a wrapper (`npx …`) exits on SIGTERM and leaves the adapter it
  // started running; the group reaches both.
  const child = spawn(command, [...args, 'start', '--config', config], {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  _groups.add(child.pid!);
  _killGroupsOnExit();
  const logs: string[] = [];
  // The end of stderr: every process that holds it (the wrapper, the adapter) has exited.
  const stderrClosed = new Promise<void>((resolve) => child.stderr!.once('close', () => resolve()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    _signalGroup(child.pid!, 'SIGTERM');
    // Bounded: after 10 s whatever is left of the group is killed.
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        _signalGroup(child.pid!, 'SIGKILL');
        resolve();
      }, 10_000);
    });
    await Promise.race([Promise.all([exited, stderrClosed]), bound]);
    clearTimeout(timer);
    _groups.delete(child.pid!);
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new Error(
          `the adapter (${argv.join(' ')}) did not log {"event":"ready"} within ${timeoutMs} ms; its stderr:\n${logs.join('\n')}`,
        ),
      );
    }, timeoutMs);
    createInterface({ input: child.stderr! }).on('line', (line) => {
      logs.push(line);
      if (/"event"\s*:\s*"ready"/.test(line)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot start the adapter (${argv.join(' ')}): ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(
          `the adapter (${argv.join(' ')}) exited (${code ?? signal}) before it was ready; its stderr:\n${logs.join('\n')}`,
        ),
      );
    });
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  return { child, logs, stop };
}

/** The process groups of the adapters still running (their leaders' pids). */
const _groups = new Set<number>();
let _exitHook = false;

/** Once: when this process exits, the adapters it started go with it (they are in their own groups). */
function _killGroupsOnExit(): void {
  if (_exitHook) return;
  _exitHook = true;
  process.on('exit', () => {
    for (const pid of _groups) _signalGroup(pid, 'SIGKILL');
  });
}

/** Signals every process of a group; a group already gone is not an error. */
function _signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: nothing left in the group
  }
}
