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
   * SIGTERM, then SIGKILL after 10 s; resolves once it exited and so did every process that shares
   * its stderr (the adapter a wrapper such as `npx` started), or at that bound.
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
  const child = spawn(command, [...args, 'start', '--config', config], {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const logs: string[] = [];
  // The end of stderr: every process that holds it has exited. A wrapper (`npx …`) passes stderr
  // to the adapter it starts and may exit on SIGTERM before that adapter has stopped.
  const stderrClosed = new Promise<void>((resolve) => child.stderr!.once('close', () => resolve()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    const running = child.exitCode === null && child.signalCode === null;
    if (running) child.kill('SIGTERM');
    // Bounded: after 10 s the command is killed, and what it left holding stderr is not waited for.
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve();
      }, 10_000);
    });
    await Promise.race([Promise.all([exited, stderrClosed]), bound]);
    clearTimeout(timer);
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
