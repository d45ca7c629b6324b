/**
 * `xprotocol-adapter keygen --output FILE [--force]`: writes a new key file (mode 0600, never over
 * an existing file without `--force`) and prints the public keys as JSON on stdout.
 * @module
 */
import { CryptoError, generateIdentity } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures, writeKeyFile } from '@xprotocol/crypto/node';
import { CliError, type CliIo } from './cli-shape.js';
import { expandHome } from './paths.js';

/** Options of {@link keygen}. */
export interface KeygenOptions {
  output: string;
  force?: boolean;
}

/** Generates an identity, writes it to `output` and prints `{"ed25519": …, "x25519": …}`. */
export async function keygen(options: KeygenOptions, io: CliIo): Promise<void> {
  const path = expandHome(options.output);
  const identity = generateIdentity({ signatures: nodeSignatures, cipher: nodeCipher });
  try {
    await writeKeyFile(path, identity, { force: options.force === true });
  } catch (error) {
    if (error instanceof CryptoError) throw new CliError(error.message, undefined, { cause: error });
    throw error;
  }
  io.out(`${JSON.stringify({ ed25519: identity.keys.ed25519, x25519: identity.keys.x25519 })}\n`);
  io.err(`wrote ${path} (mode 0600): keep it secret; its ed25519 key is this endpoint's identity\n`);
}
