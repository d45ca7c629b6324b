/**
 * Paths in the configuration (`identity.key_file`, `identity.parent_delegation_event`,
 * `identity.rotated_from`,
 * `logging.output`, `state_database`): `~` and `~/…` expand to the home directory; a relative
 * path is taken from the folder of the configuration file, so the adapter finds the same files
 * whatever directory it starts in.
 * @module
 */
import { isAbsolute, join, resolve } from 'node:path';

/**
 * Expands and resolves a configuration path.
 * @example
 * expandConfigPath('~/.xprotocol/adapter.key', { homeDir: '/home/ada', baseDir: '/etc/xp' }); // '/home/ada/.xprotocol/adapter.key'
 * expandConfigPath('keys/adapter.key', { homeDir: '/home/ada', baseDir: '/etc/xp' }); // '/etc/xp/keys/adapter.key'
 */
export function expandConfigPath(path: string, where: { homeDir: string; baseDir: string }): string {
  if (path === '~') return resolve(where.homeDir);
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(resolve(where.homeDir), path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(where.baseDir, path);
}
