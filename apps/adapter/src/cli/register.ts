/**
 * `xprotocol-adapter register --key K --parent-key P --capabilities CSV [--expires WHEN]
 * [--on-behalf-of KEY] [--parent-delegation FILE] [--output FILE [--force]]`: the parent key signs
 * a delegation to K (docs/protocol.md §11.1) and the command writes the whole chain, root first —
 * the parent's own chain with the new link after it — so one file proves K's authority. Whatever
 * the chain check would refuse (a widened capability, a parent that is not the chain's last key,
 * a parent chain that is not valid now) is refused here before anything is signed.
 * @module
 */
import {
  type AcceptedChain,
  capabilityCovers,
  checkDelegationChain,
  type Delegation,
  type Ed25519KeyString,
  isValidGrant,
  MAX_DELEGATION_CAPABILITIES,
  nodeSignatures,
  signDelegation,
} from '@xprotocol/crypto/node';
import type { Command } from 'commander';
import { CliError, type CliIo, usageError } from './cli-shape.js';
import {
  parseKeyFlag,
  parseTimeFlag,
  readChainFile,
  readFlagKeyFile,
  readFlagPublicKey,
  when,
  writeResult,
} from './delegation-files.js';

/** Options of {@link register}. */
export interface RegisterOptions {
  key: string;
  parentKey: string;
  capabilities: string;
  expires: string;
  onBehalfOf?: string;
  parentDelegation?: string;
  output?: string;
  force?: boolean;
}

/** The default lifetime of a delegation: 90 days. */
const DEFAULT_EXPIRES = '90d';
/** Adds the command to the program (docs/cli.md, "register"). */
export function addRegisterCommand(program: Command, io: CliIo): void {
  program
    .command('register')
    .description(
      'register a key under its parent: the parent key signs a delegation of some of its capabilities; prints (or writes) the whole chain, root first, as JSON',
    )
    .requiredOption(
      '-k, --key <file|key>',
      'the key to register: its key file, or its public key ed25519:<64 hex>',
    )
    .requiredOption(
      '-p, --parent-key <file>',
      'the key file of the issuer: a root, or a key registered before',
    )
    .requiredOption('--capabilities <csv>', 'comma-separated grants, e.g. com.acme.docs.read,com.acme.crm.*')
    .option(
      '--expires <when>',
      'a duration from now (3600s, 30m, 12h, 90d, 2w, 1y) or unix seconds',
      DEFAULT_EXPIRES,
    )
    .option(
      '--on-behalf-of <key>',
      'the user the key acts for, ed25519:<64 hex>: the parent key itself, or the user its chain acts for',
    )
    .option(
      '--parent-delegation <file>',
      "the parent's own chain file (what register wrote for it); without it the parent key is a root",
    )
    .option('-o, --output <file>', 'write the chain to this file instead of stdout')
    .option('--force', 'replace an existing --output file')
    .action(async (options: RegisterOptions) => register(options, io));
}

/** Runs the command: checks everything, signs the link, writes the chain. */
export async function register(
  options: RegisterOptions,
  io: CliIo,
  nowMs: number = Date.now(),
): Promise<void> {
  const now = Math.floor(nowMs / 1000);
  const capabilities = parseCapabilities(options.capabilities);
  const expiresAt = parseExpires(options.expires, now);
  const onBehalfOfFlag =
    options.onBehalfOf === undefined ? undefined : parseKeyFlag('--on-behalf-of', options.onBehalfOf);
  const parent = await readFlagKeyFile('--parent-key', options.parentKey);
  const delegate = await readFlagPublicKey('--key', options.key);
  const parentChain =
    options.parentDelegation === undefined
      ? []
      : readChainFile('--parent-delegation', options.parentDelegation);
  const held = _parentAuthority(parentChain, parent.keys.ed25519, options.parentDelegation, now);
  _refuseWidening(capabilities, held);
  _refuseCycle(delegate, parent.keys.ed25519, parentChain);
  const onBehalfOf = _onBehalfOf(onBehalfOfFlag, held, parent.keys.ed25519);

  const last = parentChain[parentChain.length - 1];
  const link = signDelegation(
    {
      delegated_key: delegate,
      capabilities,
      on_behalf_of: onBehalfOf,
      // Never before the parent's own start (that would be backdated); the parent chain is valid now.
      not_before: Math.max(now, held?.notBefore ?? now),
      expires_at: expiresAt,
      proof: last?.id,
    },
    parent.ed25519.secretKey,
    nodeSignatures,
  );
  const chain = [...parentChain, link];
  const verdict = checkDelegationChain({ chain, trustedRoots: [chain[0]!.issuer], at: now }, nodeSignatures);
  if (!verdict.ok) throw new CliError(`the new chain does not pass the chain check: ${verdict.message}`);

  const where = await writeResult(
    `${JSON.stringify(chain, null, 2)}\n`,
    options.output,
    options.force === true,
    io,
  );
  io.err(
    `registered ${delegate} under ${parent.keys.ed25519} (link ${chain.length - 1} of a chain from root ${verdict.root}): ${capabilities.join(', ')}, valid until ${when(verdict.expiresAt)}${where === 'stdout' ? '' : `; wrote ${where}`}\n`,
  );
  if (verdict.expiresAt < expiresAt) {
    io.err(
      `note: --expires asked for ${when(expiresAt)}, but the chain ends with the parent's delegation at ${when(verdict.expiresAt)}\n`,
    );
  }
}

/** `a.b,c.*` → the grants, each checked; usage errors name the item. */
function parseCapabilities(csv: string): string[] {
  const items = csv.split(',').map((item) => item.trim());
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (item === '')
      throw usageError(
        `--capabilities: item ${i + 1} is empty; expected comma-separated grants such as com.acme.docs.read,com.acme.crm.*`,
      );
    if (!isValidGrant(item)) {
      throw usageError(
        `--capabilities: ${JSON.stringify(item)} is not a grant: expected dot-separated segments of [A-Za-z0-9_-]+, optionally ending in ".*", or "*" alone`,
      );
    }
    if (seen.has(item)) throw usageError(`--capabilities: ${JSON.stringify(item)} is listed twice`);
    seen.add(item);
  });
  if (seen.size > MAX_DELEGATION_CAPABILITIES)
    throw usageError(
      `--capabilities: ${seen.size} grants, at most ${MAX_DELEGATION_CAPABILITIES} fit in one delegation`,
    );
  return [...seen];
}

/** A duration from now (`90d`) or unix seconds, in the future. */
function parseExpires(value: string, now: number): number {
  const at = parseTimeFlag('--expires', value, now);
  if (at <= now) {
    throw new CliError(
      `--expires ${value} is in the past (now is ${when(now)}); a plain number is unix seconds: write a duration such as ${value}s for that many seconds from now`,
    );
  }
  return at;
}

/**
 * What the parent may delegate: nothing to check for a root (no parent chain); otherwise its chain
 * must be valid now and end with the parent key.
 */
function _parentAuthority(
  chain: readonly Delegation[],
  parentKey: Ed25519KeyString,
  file: string | undefined,
  now: number,
): AcceptedChain | undefined {
  if (chain.length === 0) return undefined;
  const verdict = checkDelegationChain({ chain, trustedRoots: [chain[0]!.issuer], at: now }, nodeSignatures);
  if (!verdict.ok)
    throw new CliError(
      `--parent-delegation ${file}: the chain is refused (${verdict.code}): ${verdict.message}`,
    );
  if (verdict.delegatedKey !== parentKey) {
    throw new CliError(
      `--parent-key is ${parentKey}, but the chain in ${file} delegates to ${verdict.delegatedKey}: give that key's file as --parent-key, or that key's chain as --parent-delegation`,
    );
  }
  return verdict;
}

function _refuseWidening(capabilities: readonly string[], held: AcceptedChain | undefined): void {
  if (held === undefined) return;
  for (const capability of capabilities) {
    if (!held.capabilities.some((h) => capabilityCovers(h, capability))) {
      throw new CliError(
        `--capabilities: ${capability} is not covered by the parent's capabilities (${held.capabilities.join(', ')}): a delegation can only narrow what its issuer holds`,
      );
    }
  }
}

function _refuseCycle(
  delegate: Ed25519KeyString,
  parentKey: Ed25519KeyString,
  chain: readonly Delegation[],
): void {
  const keys = [chain[0]?.issuer ?? parentKey, ...chain.map((link) => link.delegated_key), parentKey];
  if (keys.includes(delegate)) {
    throw new CliError(
      `--key ${delegate} is already in the parent's chain (or is the parent key): a key cannot be registered under itself`,
    );
  }
}

/** A chain that acts for a user keeps acting for it; only a key can start acting for itself. */
function _onBehalfOf(
  flag: Ed25519KeyString | undefined,
  held: AcceptedChain | undefined,
  parentKey: Ed25519KeyString,
): Ed25519KeyString | undefined {
  const inherited = held?.onBehalfOf;
  if (inherited !== undefined) {
    if (flag !== undefined && flag !== inherited)
      throw new CliError(
        `--on-behalf-of ${flag}: the parent's chain acts on behalf of ${inherited}, and every link after it must too`,
      );
    return inherited;
  }
  if (flag !== undefined && flag !== parentKey) {
    throw new CliError(
      `--on-behalf-of ${flag}: only that key can delegate on its own behalf; --parent-key is ${parentKey}`,
    );
  }
  return flag;
}
