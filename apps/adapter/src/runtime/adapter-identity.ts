/**
 * The adapter's identity: its key file, loaded, or created (0600, in a 0700 folder) when missing.
 * A key file that cannot be created is named with what to do.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Identity } from '@xprotocol/crypto';
import { ensureKeyFile, nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import type { AdapterConfig } from '../config/index.js';
import type { AdapterLogger } from './logger.js';

/** Loads (or creates) `identity.key_file` and logs which it did, with the keys. */
export async function _loadIdentity(config: AdapterConfig, logger: AdapterLogger): Promise<Identity> {
  const { keyFile } = config.identity;
  // The loader requires key_file in every mode but mcp_gateway, which loads no identity; a config
  // built in code (the devserver adds a relay to any file) may still lack one.
  if (keyFile === undefined) {
    throw new Error(
      'identity.key_file: missing, expected the path of a key file: an adapter with relays signs what it publishes',
    );
  }
  const { identity, created } = await _ensureKeyFile(keyFile, {
    signatures: nodeSignatures,
    cipher: nodeCipher,
  });
  logger.info(
    { key: identity.keys.ed25519, x25519: identity.keys.x25519, keyFile },
    created ? 'created a new key file' : 'loaded the key file',
  );
  return identity;
}

/**
 * Loads the key file, or creates it when missing. Says which file failed and what to do: a missing
 * folder is created (0700) like the state database's; a folder that cannot be written is named.
 */
async function _ensureKeyFile(
  path: string,
  backends: Parameters<typeof ensureKeyFile>[1],
): Promise<Awaited<ReturnType<typeof ensureKeyFile>>> {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    return await ensureKeyFile(path, backends);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && ['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST'].includes(code)) {
      throw new Error(
        `identity.key_file ${path}: cannot create the key file: ${(error as Error).message}; choose a key_file in a folder you can write`,
        { cause: error },
      );
    }
    throw error;
  }
}
