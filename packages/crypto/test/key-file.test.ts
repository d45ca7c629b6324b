/**
 * Key files (docs/protocol.md §7): mode 0600, atomic, never overwritten without force, refused
 * when group/other bits are set or the content is malformed, public keys checked against secrets.
 */
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CryptoError, generateIdentity, hexToBytes, identityFromSecretKeys } from '../src/index.js';
import {
  decodeKeyFile,
  encodeKeyFile,
  ensureKeyFile,
  nodeCipher,
  nodeSignatures,
  readKeyFile,
  writeKeyFile,
} from '../src/node.js';

const posix = process.platform !== 'win32';
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'xp-key-file-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const backends = { signatures: nodeSignatures, cipher: nodeCipher };
const fixed = identityFromSecretKeys({
  ed25519: hexToBytes('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'),
  x25519: hexToBytes('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a'),
});
const fixedText = encodeKeyFile(fixed, new Date('2026-01-31T12:00:00.000Z'));

async function keyFileError(promise: Promise<unknown>): Promise<CryptoError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CryptoError);
    expect((error as CryptoError).code).toBe('KEY_FILE');
    return error as CryptoError;
  }
  throw new Error('expected a KEY_FILE error, got success');
}

describe('format', () => {
  it('is the documented JSON', () => {
    expect(JSON.parse(fixedText)).toEqual({
      version: 1,
      ed25519: {
        public: 'ed25519:d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
        secret: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
      },
      x25519: {
        public: 'x25519:8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a',
        secret: '77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a',
      },
      created_at: '2026-01-31T12:00:00.000Z',
    });
    const back = decodeKeyFile(fixedText, backends);
    expect(back.keys).toEqual(fixed.keys);
    expect(back.createdAt).toBe('2026-01-31T12:00:00.000Z');
  });

  interface Doc {
    [field: string]: unknown;
    ed25519: { public: string; secret: string };
    x25519: { public: string; secret: string };
  }
  const cases: [string, (doc: Doc) => void, RegExp][] = [
    ['version 2', (d) => (d.version = 2), /version: expected 1, got number 2/],
    ['a missing x25519', (d) => Reflect.deleteProperty(d, 'x25519'), /x25519: missing/],
    ['an extra field', (d) => (d.comment = 'hi'), /comment: unexpected field/],
    [
      'an uppercase secret',
      (d) => (d.ed25519.secret = d.ed25519.secret.toUpperCase()),
      /ed25519.secret: expected 64 lowercase hex/,
    ],
    [
      'a short secret',
      (d) => (d.x25519.secret = 'abcd'),
      /x25519.secret: expected 64 lowercase hex digits, got "abcd"/,
    ],
    [
      'a placeholder public key',
      (d) => (d.ed25519.public = 'ed25519:abc123...'),
      /ed25519.public: expected "ed25519:" followed by/,
    ],
    [
      'an x25519 key in the ed25519 slot',
      (d) => (d.ed25519.public = d.x25519.public),
      /ed25519.public: expected "ed25519:"/,
    ],
    [
      'a mismatched ed25519 public key',
      (d) => (d.ed25519.public = `ed25519:${'11'.repeat(32)}`),
      /ed25519.public: does not match ed25519.secret/,
    ],
    [
      'a mismatched x25519 public key',
      (d) => (d.x25519.public = `x25519:${'11'.repeat(32)}`),
      /x25519.public: does not match x25519.secret/,
    ],
    ['a unix created_at', (d) => (d.created_at = 1767182400), /created_at: expected an ISO-8601 UTC time/],
    [
      'a local-time created_at',
      (d) => (d.created_at = '2026-01-31 12:00'),
      /created_at: expected an ISO-8601 UTC time/,
    ],
  ];
  it.each(cases)('refuses %s, naming the field', (_name, mutate, message) => {
    const doc = JSON.parse(fixedText) as Doc;
    mutate(doc);
    let error: unknown;
    try {
      decodeKeyFile(JSON.stringify(doc), backends, 'test.key');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CryptoError);
    expect((error as CryptoError).code).toBe('KEY_FILE');
    expect((error as CryptoError).message).toMatch(/^test\.key: /);
    expect((error as CryptoError).message).toMatch(message);
  });

  it('refuses text that is not a JSON object', () => {
    expect(() => decodeKeyFile('{"version":1', backends)).toThrow(/key file: expected JSON/);
    expect(() => decodeKeyFile('[]', backends)).toThrow(/expected a JSON object, got an array/);
  });
});

describe('on disk', () => {
  it('writes mode 0600 in a new 0700 directory and reads it back', async () => {
    const path = join(dir, 'nested', 'deeper', 'adapter.key');
    const me = generateIdentity(backends);
    await writeKeyFile(path, me);
    const back = await readKeyFile(path, backends);
    expect(back.keys).toEqual(me.keys);
    expect(back.ed25519.secretKey).toEqual(me.ed25519.secretKey);
    if (posix) {
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      expect((await stat(join(dir, 'nested', 'deeper'))).mode & 0o077).toBe(0);
    }
    // No temporary file is left beside it.
    expect(await readdir(join(dir, 'nested', 'deeper'))).toEqual(['adapter.key']);
  });

  it('never overwrites without force, and overwrites with it', async () => {
    const path = join(dir, 'twice.key');
    const first = generateIdentity(backends);
    const second = generateIdentity(backends);
    await writeKeyFile(path, first);
    const error = await keyFileError(writeKeyFile(path, second));
    expect(error.message).toMatch(/already exists; refusing to overwrite it without force/);
    expect((await readKeyFile(path, backends)).keys).toEqual(first.keys);
    await writeKeyFile(path, second, { force: true });
    expect((await readKeyFile(path, backends)).keys).toEqual(second.keys);
    if (posix) expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it.runIf(posix)('refuses a file readable by group or others, naming the mode and the fix', async () => {
    const path = join(dir, 'loose.key');
    await writeKeyFile(path, fixed);
    for (const mode of [0o644, 0o640, 0o604, 0o601, 0o610]) {
      await chmod(path, mode);
      const error = await keyFileError(readKeyFile(path, backends));
      expect(error.message).toContain(`mode 0${mode.toString(8)}`);
      expect(error.message).toContain(`chmod 600 ${path}`);
    }
    await chmod(path, 0o400);
    expect((await readKeyFile(path, backends)).keys).toEqual(fixed.keys);
  });

  it('names a parent that cannot be a directory', async () => {
    const file = join(dir, 'plain-file');
    await writeFile(file, 'not a directory');
    const error = await keyFileError(writeKeyFile(join(file, 'adapter.key'), fixed));
    expect(error.message).toMatch(/cannot create the directory/);
  });

  it('names a missing file and a directory', async () => {
    expect((await keyFileError(readKeyFile(join(dir, 'absent.key')))).message).toMatch(
      /no such file; create one with/,
    );
    expect((await keyFileError(readKeyFile(dir))).message).toMatch(/expected a regular file/);
  });

  it('refuses malformed content on disk, naming the path and the field', async () => {
    const path = join(dir, 'bad.key');
    await writeFile(path, fixedText.replace('"version": 1', '"version": "1"'), { mode: 0o600 });
    const error = await keyFileError(readKeyFile(path, backends));
    expect(error.message).toBe(`${path}: version: expected 1, got "1"`);
  });

  it('ensureKeyFile creates a missing file once, then reads it', async () => {
    const path = join(dir, 'ensure', 'adapter.key');
    const made = await ensureKeyFile(path, backends);
    expect(made.created).toBe(true);
    const again = await ensureKeyFile(path, backends);
    expect(again.created).toBe(false);
    expect(again.identity.keys).toEqual(made.identity.keys);
    expect(again.identity.createdAt).toBe(made.identity.createdAt);
    expect(JSON.parse(await readFile(path, 'utf8')).version).toBe(1);
  });
});
