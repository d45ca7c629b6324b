/**
 * `xprotocol-adapter rotate` (docs/cli.md; docs/protocol.md §11.8), run as the built bin in child
 * processes: it writes a rotation that `verifyRotation` accepts, signed by the old key and
 * countersigned by the new one, with the grace period asked for; with `--relay` it publishes it as
 * an `xp.key.rotate` event by the old key that a real relay on loopback serves back; and bad
 * inputs (the same key twice, an unreadable key file, a grace in the past, a bad duration) are
 * refused with exit 2 before anything is signed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, verifyEvent, verifyRotation } from '@xprotocol/crypto';
import { RelayPool } from '@xprotocol/relay-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Processes } from './support/processes.js';

type Key = { path: string; ed25519: string };
let procs: Processes;
let oldKey: Key;
let newKey: Key;
let relayUrl: string;

const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  procs = new Processes();
  [oldKey, newKey] = (await Promise.all(
    ['old.key', 'new.key'].map((name) => procs.keygen(name)),
  )) as unknown as [Key, Key];
  ({ url: relayUrl } = await procs.relay());
}, 60_000);

afterAll(async () => {
  await procs?.close();
});

describe('xprotocol-adapter rotate', () => {
  it('prints a rotation from the old key to the new one, valid, with the grace asked for', async () => {
    const before = now();
    const { code, stdout, stderr } = await procs.cli([
      'rotate',
      '--key',
      oldKey.path,
      '--new-key',
      newKey.path,
      '--grace',
      '7d',
    ]);
    expect({ code, stderr }).toMatchObject({ code: 0 });
    const rotation = JSON.parse(stdout) as { grace_until: number; created_at: number };
    expect(verifyRotation(rotation)).toMatchObject({
      ok: true,
      rotation: { kind: 'xp.key.rotate', old_key: oldKey.ed25519, new_key: newKey.ed25519 },
    });
    expect(rotation.created_at).toBeGreaterThanOrEqual(before);
    expect(rotation.grace_until).toBe(rotation.created_at + 7 * 86_400);
    expect(stderr).toContain(`rotated ${oldKey.ed25519} to ${newKey.ed25519}`);
  });

  it('writes --output and publishes to --relay an xp.key.rotate event by the old key', async () => {
    const output = join(procs.dir, 'rotation.json');
    const grace = now() + 3600;
    const { code, stderr } = await procs.cli([
      'rotate',
      '--key',
      oldKey.path,
      '--new-key',
      newKey.path,
      '--grace',
      String(grace),
      '--output',
      output,
      '--relay',
      relayUrl,
    ]);
    expect({ code, stderr }).toMatchObject({ code: 0 });
    expect(stderr).toContain(`published to ${relayUrl}`);
    const rotation = JSON.parse(readFileSync(output, 'utf8')) as { grace_until: number };
    expect(rotation.grace_until).toBe(grace);

    const pool = await RelayPool.open({ urls: [relayUrl] });
    try {
      await pool.connect(10_000);
      const events = await new Promise<unknown[]>((resolve) => {
        const seen: unknown[] = [];
        const sub = pool.subscribe([{ kinds: ['xp.key.rotate'], authors: [oldKey.ed25519] }], {
          onEvent: (event) => seen.push(event),
          onEose: () => {
            sub.close();
            resolve(seen);
          },
        });
      });
      expect(events).toHaveLength(1);
      const event = events[0] as { pubkey: string; content: string; tags: string[][] };
      expect(verifyEvent(event).ok).toBe(true);
      expect(event.pubkey).toBe(oldKey.ed25519);
      expect(event.content).toBe(canonicalJson(rotation));
      const expiration = Number(event.tags.find((tag) => tag[0] === 'expiration')?.[1]);
      expect(expiration).toBeGreaterThan(grace);
    } finally {
      await pool.close();
    }
  }, 30_000);

  it.each([
    ['the same key twice', ['--new-key', 'OLD'], /--new-key: .* is the same key as --key/],
    ['an unreadable key file', ['--new-key', 'missing.key'], /--new-key: .*missing\.key/],
    ['a grace in the past', ['--new-key', 'NEW', '--grace', '1000'], /--grace 1000 is in the past/],
    ['a bad duration', ['--new-key', 'NEW', '--grace', '7 days'], /--grace: expected a duration/],
  ])('refuses %s with exit 2, signing nothing', async (_what, extra, message) => {
    const args = extra.map((arg) => (arg === 'OLD' ? oldKey.path : arg === 'NEW' ? newKey.path : arg));
    const output = join(procs.dir, `refused-${extra.join('-').replace(/\W/g, '')}.json`);
    const { code, stdout, stderr } = await procs.cli([
      'rotate',
      '--key',
      oldKey.path,
      ...args,
      '--output',
      output,
    ]);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toMatch(message);
    expect(existsSync(output)).toBe(false);
  });
});
