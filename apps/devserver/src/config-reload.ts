/**
 * Hot reload in `--config` mode with `--watch` (docs/devserver.md): when the file changes it is
 * loaded again and the adapter restarted with it. A file that no longer validates, or an adapter
 * that fails to restart, keeps the running configuration and says why; either way the outcome is
 * kept for the web console's Config page.
 * @module
 */
import type { Stats } from 'node:fs';
import { ConfigError, type ConfigWarning, type LoadedConfig } from '@xprotocol/mcp-adapter';
import type { DevserverCliContext } from './cli-context.js';
import { _loadConfigFile } from './config-file.js';
import { _configFailure, _printConfigWarnings } from './config-report.js';
import { watchConfigFile } from './config-watch.js';
import type { ReloadReport } from './console-server.js';
import type { DevServer } from './start-dev-server.js';
import type { Style } from './style.js';

/** The running configuration's warnings and the last reload's outcome (the Config page reads them). */
export interface _ReloadState {
  warnings: readonly ConfigWarning[];
  lastReload: ReloadReport | undefined;
}

/**
 * Watches the running configuration's file and reloads on each change; `since` is the file's stat
 * taken before its first load. Returns what stops watching.
 */
export function _watchForReload(
  ctx: DevserverCliContext,
  style: Style,
  running: DevServer,
  state: _ReloadState,
  since: Stats | undefined,
): () => void {
  const file = running.config.file;
  return watchConfigFile(file, () => _reload(ctx, style, running, file, state), { since });
}

/** Loads the changed file and restarts the adapter with it, or keeps the running one. */
async function _reload(
  ctx: DevserverCliContext,
  style: Style,
  running: DevServer,
  file: string,
  state: _ReloadState,
): Promise<void> {
  const next = _loadChanged(ctx, running, file, state);
  if (next === undefined) return;
  _printConfigWarnings(ctx, next.warnings, false);
  try {
    const adapter = await running.reload(next.config);
    const tools = adapter.sources.status().reduce((sum, s) => sum + s.toolCount, 0);
    ctx.err(`${style.ok('↻')} ${file} changed: adapter restarted (${tools} tools)\n`);
    state.warnings = next.warnings;
    state.lastReload = {
      at: Date.now(),
      ok: true,
      message: `adapter restarted (${tools} tools)`,
      issues: [],
    };
  } catch (error) {
    const message = `reload failed: ${(error as Error).message}; the previous configuration runs`;
    ctx.err(`xprotocol-devserver: ${message}\n`);
    state.lastReload = { at: Date.now(), ok: false, message, issues: [] };
  }
}

/** The changed file, loaded; `undefined` (said why, and recorded) when it no longer validates. */
function _loadChanged(
  ctx: DevserverCliContext,
  running: DevServer,
  file: string,
  state: _ReloadState,
): LoadedConfig | undefined {
  // The devserver always supplies the key (config-file.ts), so its running adapter has one.
  const keyFile = running.config.identity.keyFile;
  if (keyFile === undefined) throw new Error('internal: the devserver runs an adapter without a key file');
  try {
    return _loadConfigFile(file, keyFile);
  } catch (error) {
    if (error instanceof ConfigError) {
      ctx.err(`xprotocol-devserver: ${_configFailure(ctx, error, file).message}\n`);
      ctx.err('the running adapter is kept; fix the file to reload\n');
      state.lastReload = {
        at: Date.now(),
        ok: false,
        message: `${file} changed but is invalid: the running adapter is kept`,
        issues: error.issues,
      };
      return undefined;
    }
    throw error;
  }
}
