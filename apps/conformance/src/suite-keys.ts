/**
 * The suite's identities: the granted client, a stranger with no grant, the peer endpoint, and the
 * organisation root that issues the delegation chains of the optional delegated-identity checks.
 * With a keys folder they are read from (or created in) it, so that an adapter someone else runs
 * can be configured once with the same keys (`--print-config --keys DIR`).
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { generateIdentity, type Identity } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures, readKeyFile, writeKeyFile } from '@xprotocol/crypto/node';

/** The suite's four identities. */
export interface SuiteKeys {
  client: Identity;
  stranger: Identity;
  peer: Identity;
  /** A delegation root (docs/protocol.md §11.3): the adapter trusts it and is registered under it. */
  issuer: Identity;
}

const BACKENDS = { signatures: nodeSignatures, cipher: nodeCipher };

async function _load(dir: string, name: string): Promise<Identity> {
  const path = join(dir, `${name}.key`);
  if (!existsSync(path)) await writeKeyFile(path, generateIdentity(BACKENDS));
  return readKeyFile(path, BACKENDS);
}

/** Fresh identities, or those of `dir` (created there when missing). */
export async function suiteKeys(dir?: string): Promise<SuiteKeys> {
  if (!dir) {
    return {
      client: generateIdentity(BACKENDS),
      stranger: generateIdentity(BACKENDS),
      peer: generateIdentity(BACKENDS),
      issuer: generateIdentity(BACKENDS),
    };
  }
  return {
    client: await _load(dir, 'client'),
    stranger: await _load(dir, 'stranger'),
    peer: await _load(dir, 'peer'),
    issuer: await _load(dir, 'issuer'),
  };
}
