/**
 * What `register`, `revoke` and `rotate` share (docs/cli.md; docs/protocol.md §11): reading key files and
 * chain files with errors that name the flag and the file, and writing a result to stdout or to a
 * file that is never half-written and never replaced unless asked.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, rename, unlink, writeFile } from 'node:fs/promises';
import {
  CryptoError,
  type Delegation,
  type Ed25519KeyString,
  isKeyString,
  type KeyFileIdentity,
  nodeCipher,
  nodeSignatures,
  readKeyFile,
  verifyDelegation,
} from '@xprotocol/crypto/node';
import { CliError, type CliIo, usageError } from './cli-shape.js';
import { expandHome } from './paths.js';

/** Reads the key file a flag names; its problems become a {@link CliError} naming the flag. */
export async function readFlagKeyFile(flag: string, path: string): Promise<KeyFileIdentity> {
  try {
    return await readKeyFile(expandHome(path), { signatures: nodeSignatures, cipher: nodeCipher });
  } catch (error) {
    if (error instanceof CryptoError)
      throw new CliError(`${flag}: ${error.message}`, undefined, { cause: error });
    throw new CliError(`${flag} ${path}: ${(error as Error).message}`, undefined, { cause: error });
  }
}

/** A public key given as `ed25519:<64 hex>`, or the ed25519 key of the key file at that path. */
export async function readFlagPublicKey(flag: string, value: string): Promise<Ed25519KeyString> {
  if (value.startsWith('ed25519:')) {
    if (!isKeyString(value, 'ed25519'))
      throw usageError(
        `${flag}: expected "ed25519:" followed by 64 lowercase hex digits, or a key file, got ${JSON.stringify(value)}`,
      );
    return value as Ed25519KeyString;
  }
  return (await readFlagKeyFile(flag, value)).keys.ed25519;
}

/** A key string flag (`--on-behalf-of`): `ed25519:<64 hex>`, else a usage error. */
export function parseKeyFlag(flag: string, value: string): Ed25519KeyString {
  if (!isKeyString(value, 'ed25519'))
    throw usageError(
      `${flag}: expected "ed25519:" followed by 64 lowercase hex digits, got ${JSON.stringify(value)}`,
    );
  return value as Ed25519KeyString;
}

/** The JSON in the file a flag names, or a {@link CliError} naming the flag and the file. */
export function readFlagJson(flag: string, path: string): unknown {
  let text: string;
  try {
    text = readFileSync(expandHome(path), 'utf8');
  } catch (error) {
    throw new CliError(`${flag} ${path}: ${(error as Error).message}`, undefined, { cause: error });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `${flag} ${path}: expected JSON, got text that does not parse (${(error as Error).message})`,
      undefined,
      {
        cause: error,
      },
    );
  }
}

/** What a JSON value is, for an error message. */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/**
 * The links of a chain file (a JSON array of delegations, root first), each checked on its own
 * (shape, id, signature); whether they form a valid chain is the chain check's question.
 */
export function readChainFile(flag: string, path: string): Delegation[] {
  const value = readFlagJson(flag, path);
  if (!Array.isArray(value) || value.length === 0) {
    throw new CliError(
      `${flag} ${path}: expected a chain file (a JSON array of delegations, root first, as register writes it), got ${jsonKind(value)}`,
    );
  }
  return verifiedLinks(flag, path, value);
}

/** Each element checked as a delegation (shape, id, signature), or a {@link CliError} naming the link. */
export function verifiedLinks(flag: string, path: string, value: readonly unknown[]): Delegation[] {
  return value.map((item, i) => {
    const verdict = verifyDelegation(item, nodeSignatures);
    if (!verdict.ok) throw new CliError(`${flag} ${path}: link ${i}: ${verdict.message}`);
    return verdict.delegation;
  });
}

/**
 * Writes `text` to stdout, or to `output`: whole or not at all (a temporary file beside it, then
 * moved into place), and never over an existing file unless `force`. Returns where it went.
 */
export async function writeResult(
  text: string,
  output: string | undefined,
  force: boolean,
  io: CliIo,
): Promise<string> {
  if (output === undefined) {
    io.out(text);
    return 'stdout';
  }
  const path = expandHome(output);
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, text, { flag: 'wx' });
  try {
    if (force) await rename(temporary, path);
    else {
      // A hard link fails when the name exists, even if it appeared a moment ago.
      await link(temporary, path).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST')
          throw new CliError(`--output: ${path} exists; choose another file, or add --force to replace it`);
        throw error;
      });
    }
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  return path;
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800, y: 31_536_000 };

/**
 * A time flag (`--expires`, `--grace`): a duration from `now` (`3600s`, `30m`, `12h`, `90d`, `2w`,
 * `1y`) or unix seconds; a usage error naming the flag otherwise. Whether it may be in the past is
 * the command's rule.
 */
export function parseTimeFlag(flag: string, value: string, now: number): number {
  const duration = /^([1-9][0-9]*)([smhdwy])$/.exec(value);
  let at: number;
  if (duration) at = now + Number(duration[1]) * UNIT_SECONDS[duration[2]!]!;
  else if (/^[0-9]+$/.test(value)) at = Number(value);
  else
    throw usageError(
      `${flag}: expected a duration (3600s, 30m, 12h, 90d, 2w, 1y) or unix seconds, got ${JSON.stringify(value)}`,
    );
  if (!Number.isSafeInteger(at)) throw usageError(`${flag}: ${value} is too far in the future`);
  return at;
}

/** Unix seconds as `1767225600 (2026-01-01T00:00:00Z)`. */
export function when(seconds: number): string {
  return `${seconds} (${new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')})`;
}
