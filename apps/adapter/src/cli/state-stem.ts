/**
 * Where the commands that read a config find the state database `start` uses (docs/config.md,
 * `state_database`): the default file's stem comes from the key in `identity.key_file`, which they
 * read as `start` does, or in a pure MCP gateway from its sources.
 * @module
 */
import { nodeCipher, nodeSignatures, readKeyFile } from '@xprotocol/crypto/node';
import type { AdapterConfig } from '../config/index.js';
import { stateFileStem } from '../runtime/state-path.js';

/**
 * The default state file's stem, as `start` derives it: from the key in `identity.key_file`, or
 * in a pure MCP gateway from its sources; unused (`''`) when `state_database` is set.
 */
export async function stateStemOf(config: AdapterConfig): Promise<string> {
  const { keyFile } = config.identity;
  // state_database names the file: the stem goes unused.
  if (config.stateDatabase !== undefined) return '';
  if (keyFile === undefined) return stateFileStem(config);
  const { keys } = await readKeyFile(keyFile, { signatures: nodeSignatures, cipher: nodeCipher });
  return stateFileStem(config, keys.ed25519);
}
