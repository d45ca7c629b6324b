/**
 * Where the state database lives: `state_database` from the config, else
 * `~/.xprotocol/state/<ed25519 hex>.db` (docs/config.md), so each identity has its own.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseKey } from '@xprotocol/crypto';

/** The state database path for `ed25519Key`, creating its folder (0700). */
export function stateDatabasePath(
  configured: string | undefined,
  ed25519Key: string,
  home: string = homedir(),
): string {
  const path =
    configured ??
    join(
      home,
      '.xprotocol',
      'state',
      `${Buffer.from(parseKey(ed25519Key, 'ed25519').bytes).toString('hex')}.db`,
    );
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  return path;
}
