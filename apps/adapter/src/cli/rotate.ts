/**
 * `xprotocol-adapter rotate --key OLD --new-key NEW [--grace WHEN] [--output FILE [--force]]
 * [--relay URL…]`: the old key names its successor in a rotation (docs/protocol.md §11.8), signed
 * by the old key and countersigned by the new one, with a grace period during which the old key
 * still answers. With `--relay`, it also publishes the rotation there as an `xp.key.rotate` event
 * by the old key, where callers configured with the old key find it. Every bad input is a usage
 * error (exit 2) before anything is signed.
 * @module
 */
import { CryptoError, nodeSignatures, type Rotation, signRotation } from '@xprotocol/crypto/node';
import type { Command } from 'commander';
import { CliError, type CliIo, EXIT, usageError } from './cli-shape.js';
import { parseTimeFlag, readFlagKeyFile, when, writeResult } from './delegation-files.js';
import { publishRotation } from './revocation-publish.js';

/** Options of {@link rotate}. */
export interface RotateOptions {
  key: string;
  newKey: string;
  grace: string;
  output?: string;
  force?: boolean;
  relay?: string[];
}

/** How long callers may still send to the old key when `--grace` is not given. */
const DEFAULT_GRACE = '7d';
/** How long after the grace period relays are asked to keep the rotation event: a year. */
const KEEP_AFTER_GRACE_SECONDS = 365 * 86_400;

/** Adds the command to the program (docs/cli.md, "rotate"). */
export function addRotateCommand(program: Command, io: CliIo): void {
  program
    .command('rotate')
    .description(
      'replace a key: prints (or writes) a rotation naming the new key as the successor of the old one, signed by both',
    )
    .requiredOption('-k, --key <file>', 'the old key file: the key being retired')
    .requiredOption('-n, --new-key <file>', 'the new key file: its successor (it countersigns)')
    .option(
      '-g, --grace <when>',
      'until when the old key still answers: a duration from now (3600s, 30m, 12h, 7d, 2w) or unix seconds',
      DEFAULT_GRACE,
    )
    .option('-o, --output <file>', 'write the rotation to this file instead of stdout')
    .option('--force', 'replace an existing --output file')
    .option(
      '-r, --relay <url>',
      'also publish the rotation to this relay, where callers of the old key find it (repeat for several)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .action(async (options: RotateOptions) => rotate(options, io));
}

/** Runs the command. */
export async function rotate(options: RotateOptions, io: CliIo, nowMs: number = Date.now()): Promise<void> {
  for (const url of options.relay ?? []) {
    if (!/^wss?:\/\/[^\s/]+/.test(url))
      throw usageError(`--relay: expected a ws:// or wss:// URL, got ${JSON.stringify(url)}`);
  }
  const now = Math.floor(nowMs / 1000);
  const graceUntil = parseTimeFlag('--grace', options.grace, now);
  if (graceUntil < now) {
    throw usageError(
      `--grace ${options.grace} is in the past (now is ${when(now)}); a plain number is unix seconds: write a duration such as 7d for that long from now`,
    );
  }
  const old = await _keyFile('--key', options.key);
  const successor = await _keyFile('--new-key', options.newKey);
  if (old.keys.ed25519 === successor.keys.ed25519) {
    throw usageError(
      `--new-key: ${options.newKey} is the same key as --key (${old.keys.ed25519}); a rotation names a different key: make one with xprotocol-adapter keygen`,
    );
  }
  const rotation = signRotation(
    { created_at: now, grace_until: graceUntil },
    old.ed25519.secretKey,
    successor.ed25519.secretKey,
    nodeSignatures,
  );
  const where = await writeResult(
    `${JSON.stringify(rotation, null, 2)}\n`,
    options.output,
    options.force === true,
    io,
  );
  io.err(
    `rotated ${rotation.old_key} to ${rotation.new_key}${where === 'stdout' ? '' : `; wrote ${where}`}: callers that find this rotation send to the new key, and to the old one at most until ${when(graceUntil)}; keep the old adapter running until then, start the new one with identity.rotated_from naming this file, and give the new key its own chain (xprotocol-adapter register) if callers check one\n`,
  );
  if (options.relay?.length) await _publish(rotation, old.ed25519.secretKey, options.relay, io);
}

/** A key file; an unreadable or invalid one is a usage error naming the flag. */
async function _keyFile(flag: string, path: string) {
  try {
    return await readFlagKeyFile(flag, path);
  } catch (error) {
    if (error instanceof CliError || error instanceof CryptoError)
      throw new CliError(error.message, EXIT.usage, { cause: error });
    throw error;
  }
}

/** Publishes to every relay; a relay that does not take it fails the command, naming it and why. */
async function _publish(rotation: Rotation, oldSecretKey: Uint8Array, relays: readonly string[], io: CliIo) {
  // Callers must still find the rotation after the grace period, to never send to the old key.
  const expiration = rotation.grace_until + KEEP_AFTER_GRACE_SECONDS;
  const outcomes = await publishRotation(rotation, oldSecretKey, relays, expiration);
  for (const outcome of outcomes.filter((o) => o.ok))
    io.err(`published to ${outcome.relay} (relays keep it until ${when(expiration)} at most)\n`);
  const failed = outcomes.filter((o) => !o.ok);
  if (failed.length > 0) {
    throw new CliError(
      `the rotation was signed but not published to ${failed.map((o) => `${o.relay} (${o.reason})`).join(', ')}: run the command again with --relay once the relay is reachable`,
    );
  }
}
