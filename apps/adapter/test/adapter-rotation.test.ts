/**
 * The rotation the adapter discloses (docs/config.md, `identity.rotated_from`; docs/protocol.md
 * §11.8): `identity.rotated_from` is read with its path made absolute, and the file it names must
 * hold a valid rotation (shape, id, both signatures) whose `new_key` is the adapter's own key.
 * Each failure is a configuration error naming the file, why, and what to do. Keys and rotations
 * are made here with `@xprotocol/crypto`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateIdentity, signRotation } from '@xprotocol/crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config/index.js';
import { _loadAdapterRotation } from '../src/runtime/adapter-rotation.js';
import { base } from './config-helpers.js';

const NOW = 1_780_000_000;
const dir = mkdtempSync(join(tmpdir(), 'xp-rotation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const old = generateIdentity();
const adapter = generateIdentity();
const other = generateIdentity();
const rotation = signRotation(
  { created_at: NOW, grace_until: NOW + 86_400 },
  old.ed25519.secretKey,
  adapter.ed25519.secretKey,
);

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function configFor(path: string) {
  return {
    file: '/etc/xp/adapter.yml',
    identity: { keyFile: '/etc/xp/adapter.key', displayName: 'A', rotatedFrom: path },
  };
}

/** The configuration error's one message. */
function refusal(path: string, ownKey: string | undefined = adapter.keys.ed25519): string {
  try {
    _loadAdapterRotation(configFor(path), ownKey);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const [issue] = (error as ConfigError).issues;
    return `${issue!.path}: ${issue!.message}`;
  }
  throw new Error('expected a configuration error');
}

describe('identity.rotated_from', () => {
  it('is read with its path made absolute', () => {
    const text = base().replace(
      '  key_file: ./adapter.key',
      '  key_file: ./adapter.key\n  rotated_from: ./rotation.json',
    );
    const { config, warnings } = parseConfig(text, '/etc/xp/adapter.yml', { env: {}, homeDir: '/home/ada' });
    expect(warnings).toEqual([]);
    expect(config.identity.rotatedFrom).toBe('/etc/xp/rotation.json');
  });

  it('loads a valid rotation to this adapter, and nothing when unset', () => {
    const path = file('ok.json', JSON.stringify(rotation));
    expect(_loadAdapterRotation(configFor(path), adapter.keys.ed25519)).toEqual(rotation);
    // validate before the key file exists: the key check waits for it.
    expect(_loadAdapterRotation(configFor(path), undefined)).toEqual(rotation);
    const { rotatedFrom: _, ...identity } = configFor(path).identity;
    expect(_loadAdapterRotation({ file: 'x.yml', identity }, adapter.keys.ed25519)).toBeUndefined();
  });

  it('refuses a missing file, text that is not JSON, and an invalid rotation, naming why', () => {
    const missing = join(dir, 'missing.json');
    expect(refusal(missing)).toBe(
      `identity.rotated_from: cannot read ${missing}: no such file; expected the rotation file that xprotocol-adapter rotate --output wrote`,
    );
    const text = file('text.json', 'not json');
    expect(refusal(text)).toMatch(
      `identity.rotated_from: ${text}: expected JSON (a rotation as rotate writes it)`,
    );
    const forged = file('forged.json', JSON.stringify({ ...rotation, successor_sig: rotation.sig }));
    expect(refusal(forged)).toBe(
      `identity.rotated_from: ${forged}: not a valid rotation (successor_signature): rotation.successor_sig: not a valid Ed25519 signature of the id by the new key ${adapter.keys.ed25519} (node backend): a key can only be named as a successor with its own consent`,
    );
  });

  it("refuses a rotation to another key than the adapter's", () => {
    const path = file('other.json', JSON.stringify(rotation));
    expect(refusal(path, other.keys.ed25519)).toBe(
      `identity.rotated_from: ${path}: the rotation names ${adapter.keys.ed25519} as the successor of ${old.keys.ed25519}, expected this adapter's key ${other.keys.ed25519} (identity.key_file /etc/xp/adapter.key): make the rotation with xprotocol-adapter rotate --new-key /etc/xp/adapter.key`,
    );
  });
});
