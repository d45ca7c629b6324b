/**
 * `xprotocol-adapter revoke --key K --delegation FILE|ID [--output FILE [--force]] [--relay URL…]`:
 * K signs a revocation (docs/protocol.md §11.2) of a delegation — the last link of a chain file, a
 * single delegation file, or a delegation id. Given a file, it refuses a key that verifiers would
 * ignore (anyone but the link's issuer or a key above it); given only an id, it cannot check that
 * and says so. With `--relay`, it also publishes the revocation there, where running endpoints
 * that watch K pick it up.
 * @module
 */
import { existsSync } from 'node:fs';
import {
  type Delegation,
  type Ed25519KeyString,
  nodeSignatures,
  type Revocation,
  signRevocation,
} from '@xprotocol/crypto/node';
import type { Command } from 'commander';
import { CliError, type CliIo, usageError } from './cli-shape.js';
import {
  jsonKind,
  readFlagJson,
  readFlagKeyFile,
  verifiedLinks,
  when,
  writeResult,
} from './delegation-files.js';
import { expandHome } from './paths.js';
import { publishRevocation } from './revocation-publish.js';

/** Options of {@link revoke}. */
export interface RevokeOptions {
  key: string;
  delegation: string;
  output?: string;
  force?: boolean;
  relay?: string[];
}

const DELEGATION_ID = /^[0-9a-f]{64}$/;

/** Adds the command to the program (docs/cli.md, "revoke"). */
export function addRevokeCommand(program: Command, io: CliIo): void {
  program
    .command('revoke')
    .description('withdraw a delegation for good: prints (or writes) a signed revocation as JSON')
    .requiredOption(
      '-k, --key <file>',
      "the revoker's key file: the delegation's issuer, or a key above it in the chain",
    )
    .requiredOption(
      '-d, --delegation <file|id>',
      'a chain file (its last link is revoked), a delegation file, or a delegation id (64 hex)',
    )
    .option('-o, --output <file>', 'write the revocation to this file instead of stdout')
    .option('--force', 'replace an existing --output file')
    .option(
      '-r, --relay <url>',
      'also publish the revocation to this relay, where endpoints that trust the key pick it up (repeat for several)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .action(async (options: RevokeOptions) => revoke(options, io));
}

/** Runs the command. */
export async function revoke(options: RevokeOptions, io: CliIo, nowMs: number = Date.now()): Promise<void> {
  for (const url of options.relay ?? []) {
    if (!/^wss?:\/\/[^\s/]+/.test(url))
      throw usageError(`--relay: expected a ws:// or wss:// URL, got ${JSON.stringify(url)}`);
  }
  const revoker = await readFlagKeyFile('--key', options.key);
  const target = _target(options.delegation);
  const key = revoker.keys.ed25519;
  if (target.chain !== undefined) _refuseIneligible(key, target.chain, target.id);
  const revocation = signRevocation(
    { revoked: target.id, created_at: Math.floor(nowMs / 1000) },
    revoker.ed25519.secretKey,
    nodeSignatures,
  );
  const where = await writeResult(
    `${JSON.stringify(revocation, null, 2)}\n`,
    options.output,
    options.force === true,
    io,
  );
  const link = target.chain?.at(-1);
  io.err(
    `revoked delegation ${target.id}${link ? ` (${link.issuer} → ${link.delegated_key})` : ''} as ${key}${where === 'stdout' ? '' : `; wrote ${where}`}: a verifier that has this revocation refuses every chain containing that delegation\n`,
  );
  if (target.chain === undefined) {
    io.err(
      `note: not checked that ${key} may revoke it (only the delegation's issuer or a key above it in its chain may; verifiers ignore anyone else's revocation): give the chain file to check\n`,
    );
  }
  if (options.relay?.length) {
    const nowSeconds = Math.floor(nowMs / 1000);
    // Relays keep it while the revoked delegation could still be presented (as their limits allow).
    const expiration = Math.max(link?.expires_at ?? nowSeconds + DEFAULT_KEEP_SECONDS, nowSeconds + 3600);
    await _publish(revocation, revoker.ed25519.secretKey, options.relay, expiration, io);
  }
}

/** How long relays are asked to keep a revocation of a delegation known only by its id: a year. */
const DEFAULT_KEEP_SECONDS = 365 * 86_400;

/** Publishes to every relay; a relay that does not take it fails the command, naming it and why. */
async function _publish(
  revocation: Revocation,
  secretKey: Uint8Array,
  relays: readonly string[],
  expiration: number,
  io: CliIo,
): Promise<void> {
  const outcomes = await publishRevocation(revocation, secretKey, relays, expiration);
  for (const outcome of outcomes.filter((o) => o.ok))
    io.err(`published to ${outcome.relay} (relays keep it until ${when(expiration)} at most)\n`);
  const failed = outcomes.filter((o) => !o.ok);
  if (failed.length > 0) {
    throw new CliError(
      `the revocation was signed but not published to ${failed.map((o) => `${o.relay} (${o.reason})`).join(', ')}: run the command again with --relay once the relay is reachable`,
    );
  }
}

/** The delegation to revoke and, from a file, the chain down to it. */
function _target(value: string): { id: string; chain?: Delegation[] } {
  if (DELEGATION_ID.test(value) && !existsSync(expandHome(value))) return { id: value };
  if (!existsSync(expandHome(value))) {
    throw new CliError(
      `--delegation ${value}: expected a chain file, a delegation file or a delegation id (64 lowercase hex digits); no such file`,
    );
  }
  const json = readFlagJson('--delegation', value);
  const items = Array.isArray(json) ? json : [json];
  if (items.length === 0 || typeof json !== 'object' || json === null) {
    throw new CliError(`--delegation ${value}: expected a chain file or a delegation, got ${jsonKind(json)}`);
  }
  const chain = verifiedLinks('--delegation', value, items);
  return { id: chain[chain.length - 1]!.id, chain };
}

/** Only the issuer of the revoked link or of a link above it may revoke (docs/protocol.md §11.2). */
function _refuseIneligible(key: Ed25519KeyString, chain: readonly Delegation[], id: string): void {
  const eligible = chain.map((link) => link.issuer);
  if (eligible.includes(key)) return;
  throw new CliError(
    `${key} cannot revoke delegation ${id}: only its issuer (${eligible[eligible.length - 1]}) or a key above it in the chain (${eligible.slice(0, -1).join(', ') || 'none in this file'}) can; verifiers ignore a revocation by any other key`,
  );
}
