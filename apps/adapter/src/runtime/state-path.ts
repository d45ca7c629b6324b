/**
 * Where the state database lives: `state_database` from the config, else a file under
 * `~/.xprotocol/state/` (docs/config.md): `<ed25519 hex>.db`, so each identity has its own; or, for
 * a pure MCP gateway, which has no identity, `gateway-<16 hex>.db` named by its sources, so the same
 * upstreams find the same tool pins again whether they come from a file or from
 * `xprotocol-adapter gateway` (and `approve` finds them too).
 * @module
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseKey } from '@xprotocol/crypto';
import { isPostgresUrl, StateDatabase } from '@xprotocol/mcp-bridge';
import type { AdapterConfig } from '../config/index.js';

/**
 * The state database path: `configured`, else `~/.xprotocol/state/<stem>.db` with the stem of
 * {@link stateFileStem}; creates its folder (0700).
 */
export function stateDatabasePath(
  configured: string | undefined,
  stem: string,
  home: string = homedir(),
): string {
  const path = statePathOf(configured, stem, home);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  return path;
}

/** {@link stateDatabasePath} without creating anything: for a command that only reads. */
export function statePathOf(configured: string | undefined, stem: string, home: string = homedir()): string {
  return configured ?? join(home, '.xprotocol', 'state', `${stem}.db`);
}

/**
 * The default state file's name without `.db`: the hex of `ed25519Key`, or in `mcp_gateway` mode
 * (no key) `gateway-` and 16 hex of a digest of the sources' names, transports and commands or
 * URLs (never their environment, which may hold secrets).
 */
export function stateFileStem(
  config: Pick<AdapterConfig, 'mode' | 'mcpSources'>,
  ed25519Key?: string,
): string {
  if (config.mode !== 'mcp_gateway' || ed25519Key !== undefined) {
    if (ed25519Key === undefined) throw new Error('internal: an adapter with an identity needs its key');
    return Buffer.from(parseKey(ed25519Key, 'ed25519').bytes).toString('hex');
  }
  const upstreams = config.mcpSources.map((s) => [
    s.name,
    s.transport,
    s.command ?? s.url ?? s.openapi?.document,
  ]);
  return `gateway-${createHash('sha256').update(JSON.stringify(upstreams)).digest('hex').slice(0, 16)}`;
}

/**
 * Opens the state database of `configured` for the key or gateway `stem`: a `postgres://` URL is
 * the Postgres state database replicas of one key share (its tables under `stem`); anything else
 * is the file of {@link stateDatabasePath}.
 */
export function openStateDatabase(configured: string | undefined, stem: string): StateDatabase {
  if (configured !== undefined && isPostgresUrl(configured))
    return StateDatabase.openPostgres(configured, stem);
  return new StateDatabase(stateDatabasePath(configured, stem));
}
