/**
 * Where the devserver keeps its files by default (docs/devserver.md): everything under
 * `~/.xprotocol/devserver/`, and the local relay on `ws://127.0.0.1:8765`. `--demo` uses none of
 * these: it works in a temporary directory and removes it.
 * @module
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The local relay's default port (`ws://127.0.0.1:8765`). */
export const DEFAULT_RELAY_PORT = 8765;

/** The local relay's bind address: loopback only. */
export const RELAY_HOST = '127.0.0.1';

/** The default file locations of a devserver, under `home` (default `os.homedir()`). */
export interface DevServerPaths {
  /** `~/.xprotocol/devserver` */
  dir: string;
  /** The relay's SQLite event store: `~/.xprotocol/devserver/events.db`. */
  events: string;
  /** The adapter's dev key file, created if missing: `~/.xprotocol/devserver/adapter.key`. */
  adapterKey: string;
  /** The `--mcp-proxy` client's key file: `~/.xprotocol/devserver/proxy.key`. */
  proxyKey: string;
  /** The `--mcp-proxy` adapter's state database: `~/.xprotocol/devserver/proxy-state.db`. */
  proxyState: string;
  /**
   * The running devserver's relay URL, `~/.xprotocol/devserver/relay.json`, while it serves: how
   * `--mcp-proxy` finds a relay whose port was picked at run time (`--relay-port 0`).
   */
  runningRelay: string;
}

/**
 * The default paths of {@link DevServerPaths}.
 * @example
 * devServerPaths('/home/ada').events; // '/home/ada/.xprotocol/devserver/events.db'
 */
export function devServerPaths(home: string = homedir()): DevServerPaths {
  const dir = join(home, '.xprotocol', 'devserver');
  return {
    dir,
    events: join(dir, 'events.db'),
    adapterKey: join(dir, 'adapter.key'),
    proxyKey: join(dir, 'proxy.key'),
    proxyState: join(dir, 'proxy-state.db'),
    runningRelay: join(dir, 'relay.json'),
  };
}

/** `ws://127.0.0.1:<port>`: the URL of a local relay on `port`. */
export function localRelayUrl(port: number): string {
  return `ws://${RELAY_HOST}:${port}`;
}

/** Records the serving devserver's relay URL (see {@link DevServerPaths.runningRelay}). */
export function writeRunningRelay(paths: DevServerPaths, url: string): void {
  writeFileSync(paths.runningRelay, `${JSON.stringify({ url, pid: process.pid })}\n`, { mode: 0o600 });
}

/** Removes the record, if it is still this devserver's (another one may have started since). */
export function removeRunningRelay(paths: DevServerPaths, url: string): void {
  if (readRunningRelay(paths) === url) rmSync(paths.runningRelay, { force: true });
}

/** The relay URL a running devserver recorded, or `undefined` (none, unreadable, or its process has ended). */
export function readRunningRelay(paths: DevServerPaths): string | undefined {
  let record: { url?: unknown; pid?: unknown };
  try {
    record = JSON.parse(readFileSync(paths.runningRelay, 'utf8')) as { url?: unknown; pid?: unknown };
  } catch {
    return undefined;
  }
  if (typeof record.url !== 'string' || !/^ws:\/\/127\.0\.0\.1:\d+$/.test(record.url)) return undefined;
  if (typeof record.pid === 'number') {
    try {
      process.kill(record.pid, 0); // existence check only: signal 0 sends nothing
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ESRCH') return undefined;
    }
  }
  return record.url;
}
