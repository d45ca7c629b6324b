/**
 * Key files (docs/protocol.md §7): one identity as JSON, readable by its owner only. Node-only:
 * exported from `@xprotocol/crypto/node`. Expanding `~` in a path is the caller's job.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, link, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CryptoError } from './errors.js';
import { bytesToHex, hexToBytes } from './hex.js';
import {
  generateIdentity,
  type Identity,
  type IdentityBackends,
  identityFromSecretKeys,
} from './identity.js';
import { type Ed25519KeyString, isKeyString, type X25519KeyString } from './key-string.js';

/** The JSON a key file holds (version 1). */
export interface KeyFileContents {
  readonly version: 1;
  readonly ed25519: { readonly public: Ed25519KeyString; readonly secret: string };
  readonly x25519: { readonly public: X25519KeyString; readonly secret: string };
  /** When the identity was generated: ISO-8601 UTC, e.g. `2026-11-22T00:41:20.000Z`. */
  readonly created_at: string;
}

/** An identity read from a key file, with the file's `created_at`. */
export interface KeyFileIdentity extends Identity {
  readonly createdAt: string;
}

/** Options of {@link writeKeyFile}. */
export interface WriteKeyFileOptions {
  /** Replace an existing file (`keygen --force`). Without it an existing file is an error. */
  readonly force?: boolean;
  /** The `created_at` to record; now by default. */
  readonly createdAt?: Date;
}

const FIELDS = ['version', 'ed25519', 'x25519', 'created_at'] as const;
const SECRET_HEX = /^[0-9a-f]{64}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

function fail(source: string, message: string, cause?: unknown): never {
  throw new CryptoError('KEY_FILE', `${source}: ${message}`, cause === undefined ? undefined : { cause });
}

function preview(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return value.length > 20 ? `a string of ${value.length} characters` : JSON.stringify(value);
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/**
 * Serializes an identity as key-file JSON (two-space indented, trailing newline). The text holds
 * both secret keys: write it only where {@link writeKeyFile} would.
 */
export function encodeKeyFile(identity: Identity, createdAt: Date = new Date()): string {
  const contents: KeyFileContents = {
    version: 1,
    ed25519: { public: identity.keys.ed25519, secret: bytesToHex(identity.ed25519.secretKey) },
    x25519: { public: identity.keys.x25519, secret: bytesToHex(identity.x25519.secretKey) },
    created_at: createdAt.toISOString(),
  };
  return `${JSON.stringify(contents, null, 2)}\n`;
}

function readPair(
  source: string,
  record: Record<string, unknown>,
  algorithm: 'ed25519' | 'x25519',
): { public: string; secret: Uint8Array } {
  const group = record[algorithm];
  if (typeof group !== 'object' || group === null || Array.isArray(group)) {
    fail(source, `${algorithm}: expected an object {"public", "secret"}, got ${preview(group)}`);
  }
  const pair = group as Record<string, unknown>;
  for (const key of Object.keys(pair)) {
    if (key !== 'public' && key !== 'secret') fail(source, `${algorithm}.${key}: unexpected field`);
  }
  if (!isKeyString(pair.public, algorithm)) {
    fail(
      source,
      `${algorithm}.public: expected "${algorithm}:" followed by 64 lowercase hex digits, got ${preview(pair.public)}`,
    );
  }
  if (typeof pair.secret !== 'string' || !SECRET_HEX.test(pair.secret)) {
    fail(source, `${algorithm}.secret: expected 64 lowercase hex digits, got ${preview(pair.secret)}`);
  }
  return { public: pair.public as string, secret: hexToBytes(pair.secret, 32) };
}

/**
 * Parses key-file JSON and rebuilds the identity. Throws {@link CryptoError} `KEY_FILE`, prefixed
 * with `source` (a path, by default `key file`) and naming the field, for: text that is not JSON,
 * a missing or unexpected field, `version` other than 1, a malformed key string or secret, a
 * `created_at` that is not ISO-8601 UTC, or a public key that does not belong to its secret.
 */
export function decodeKeyFile(
  text: string,
  backends: IdentityBackends = {},
  source = 'key file',
): KeyFileIdentity {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    fail(source, `expected JSON, got text that does not parse (${(error as Error).message})`, error);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    fail(source, `expected a JSON object, got ${preview(parsed)}`);
  }
  const record = parsed as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(FIELDS as readonly string[]).includes(key)) {
      fail(source, `${key}: unexpected field; a key file has ${FIELDS.join(', ')}`);
    }
  }
  for (const key of FIELDS) if (!Object.hasOwn(record, key)) fail(source, `${key}: missing`);
  if (record.version !== 1) fail(source, `version: expected 1, got ${preview(record.version)}`);
  const ed = readPair(source, record, 'ed25519');
  const x = readPair(source, record, 'x25519');
  const createdAt = record.created_at;
  if (typeof createdAt !== 'string' || !ISO_UTC.test(createdAt) || Number.isNaN(Date.parse(createdAt))) {
    fail(
      source,
      `created_at: expected an ISO-8601 UTC time such as "2026-01-31T12:00:00.000Z", got ${preview(createdAt)}`,
    );
  }
  const identity = identityFromSecretKeys({ ed25519: ed.secret, x25519: x.secret }, backends);
  if (identity.keys.ed25519 !== ed.public) {
    fail(
      source,
      `ed25519.public: does not match ed25519.secret (the secret's public key is ${identity.keys.ed25519})`,
    );
  }
  if (identity.keys.x25519 !== x.public) {
    fail(
      source,
      `x25519.public: does not match x25519.secret (the secret's public key is ${identity.keys.x25519})`,
    );
  }
  return { ...identity, createdAt };
}

/**
 * Reads a key file. Refuses (CryptoError `KEY_FILE`, naming the path) a file that is not a
 * regular file, one whose mode grants any permission to group or others (the message gives the
 * mode and the fix, `chmod 600 <path>`), and any content {@link decodeKeyFile} refuses. The mode
 * check is skipped on Windows, which has no POSIX modes.
 * @example
 * const me = await readKeyFile('/home/me/.xprotocol/adapter.key', { signatures: nodeSignatures, cipher: nodeCipher });
 */
export async function readKeyFile(path: string, backends: IdentityBackends = {}): Promise<KeyFileIdentity> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const hint =
      code === 'ENOENT'
        ? 'no such file; create one with `xprotocol-adapter keygen --output <path>`'
        : String(error);
    fail(path, `cannot read the key file: ${hint}`, error);
  }
  if (!info.isFile()) fail(path, 'expected a regular file');
  if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
    fail(
      path,
      `key file has mode ${mode}: it holds secret keys, so no group or other permission may be set; fix it with \`chmod 600 ${path}\``,
    );
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    fail(path, `cannot read the key file: ${String(error)}`, error);
  }
  return decodeKeyFile(text, backends, path);
}

/**
 * Writes an identity to a key file with mode 0600, atomically: the parent directory is created
 * (mode 0700) when missing, the JSON goes to a temporary file beside the target, is flushed, and
 * is then moved into place — so a reader never sees a partial file. Without `force` an existing
 * file is never replaced (CryptoError `KEY_FILE`), even one created concurrently.
 * @example
 * await writeKeyFile(path, generateIdentity({ signatures: nodeSignatures, cipher: nodeCipher }));
 */
export async function writeKeyFile(
  path: string,
  identity: Identity,
  options: WriteKeyFileOptions = {},
): Promise<void> {
  const directory = dirname(path);
  try {
    await mkdir(directory, { recursive: true, mode: 0o700 });
  } catch (error) {
    fail(path, `cannot create the directory ${directory}: ${String(error)}`, error);
  }
  if (!options.force) {
    const exists = await stat(path).then(
      () => true,
      () => false,
    );
    if (exists)
      fail(path, 'a key file already exists; refusing to overwrite it without force (`keygen --force`)');
  }
  const temporary = join(
    directory,
    `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    try {
      await handle.chmod(0o600);
      await handle.writeFile(encodeKeyFile(identity, options.createdAt), 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (options.force) {
      await rename(temporary, path);
    } else {
      // link() fails with EEXIST instead of replacing: no check-then-write race.
      try {
        await link(temporary, path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
          fail(
            path,
            'a key file already exists; refusing to overwrite it without force (`keygen --force`)',
            error,
          );
        }
        throw error;
      }
      await unlink(temporary);
    }
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    if (error instanceof CryptoError) throw error;
    fail(path, `cannot write the key file: ${String(error)}`, error);
  }
  await chmod(path, 0o600);
}

/** What {@link ensureKeyFile} did. */
export interface EnsureKeyFileResult {
  readonly identity: KeyFileIdentity;
  /** True when the file did not exist and was generated now. */
  readonly created: boolean;
}

/**
 * Reads the key file at `path`, or — when there is none — generates an identity, writes it
 * (mode 0600, never replacing a file another process created meanwhile) and returns it: what
 * `xprotocol-adapter start` does with `identity.key_file`. Any other problem (bad mode, bad
 * content) is thrown as by {@link readKeyFile}.
 */
export async function ensureKeyFile(
  path: string,
  backends: IdentityBackends = {},
): Promise<EnsureKeyFileResult> {
  // Anything but "no such file" (a bad mode, a directory, unreadable) is reported by readKeyFile.
  const exists = await stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => error.code !== 'ENOENT',
  );
  if (exists) return { identity: await readKeyFile(path, backends), created: false };
  const createdAt = new Date();
  const identity = generateIdentity(backends);
  try {
    await writeKeyFile(path, identity, { createdAt });
  } catch (error) {
    // Another process created the file meanwhile: use its identity.
    if (error instanceof CryptoError && /already exists/.test(error.message)) {
      return { identity: await readKeyFile(path, backends), created: false };
    }
    throw error;
  }
  return { identity: { ...identity, createdAt: createdAt.toISOString() }, created: true };
}
