/**
 * `xprotocol-adapter call --key FILE --relay URL --to ed25519:… --kind KIND --payload JSON
 * [--timeout-ms N] [--delegation CHAIN] [--trust-root ed25519:…]…`: one signed, encrypted call
 * through the relays ({@link callEndpoint}), presenting the caller's delegation chain when given
 * one; with `--trust-root`, only to an endpoint whose announce carries a delegation chain from one
 * of those roots, valid now, for the announce's own key. A key rotated on the relays
 * (docs/protocol.md §11.8) is followed to its successor, with a warning to update `--to`.
 *
 * Output (docs/cli.md): the answer's payload as JSON and exit 0; `{"error":{"code","message"}}`
 * and exit 1 (`RELAY_UNREACHABLE` at once when no relay accepts a connection, `NOT_FOUND` when the
 * endpoint has no announce on the relays, `UNTRUSTED_ENDPOINT` with `details` when no trust root
 * vouches for it, or the endpoint's own error code); a tool result with `isError: true` is
 * printed as a payload with exit 3; usage errors exit 2.
 * @module
 */
import { CryptoError, type Delegation, isKeyString } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures, readKeyFile } from '@xprotocol/crypto/node';
import { callEndpoint } from '../runtime/call-endpoint.js';
import { CliError, type CliIo, EXIT, usageError } from './cli-shape.js';
import { readChainFile } from './delegation-files.js';
import { expandHome } from './paths.js';

/** Options of {@link call}. */
export interface CallOptions {
  key: string;
  relay: string[];
  to: string;
  kind: string;
  payload: string;
  timeoutMs: number;
  /** A chain file whose last link delegates to `key` (docs/protocol.md §11.7). */
  delegation?: string;
  /** `--trust-root`, repeated: the endpoint must be vouched for by one of them. */
  trustRoot?: string[] | undefined;
}

/** Runs the call; returns the exit code. */
export async function call(options: CallOptions, io: CliIo): Promise<number> {
  if (!isKeyString(options.to, 'ed25519')) {
    throw usageError(
      `--to: expected ed25519: followed by 64 lowercase hex digits, got ${JSON.stringify(options.to)}`,
    );
  }
  for (const root of options.trustRoot ?? []) {
    if (!isKeyString(root, 'ed25519'))
      throw usageError(
        `--trust-root: expected ed25519: followed by 64 lowercase hex digits, got ${JSON.stringify(root)}`,
      );
  }
  for (const url of options.relay) {
    if (!/^wss?:\/\/[^\s/]+/.test(url))
      throw usageError(`--relay: expected a ws:// or wss:// URL, got ${JSON.stringify(url)}`);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(options.payload);
  } catch (error) {
    throw usageError(
      `--payload: expected JSON, got ${JSON.stringify(options.payload.slice(0, 80))}: ${(error as Error).message}`,
    );
  }
  let identity: Awaited<ReturnType<typeof readKeyFile>>;
  try {
    identity = await readKeyFile(expandHome(options.key), { signatures: nodeSignatures, cipher: nodeCipher });
  } catch (error) {
    if (error instanceof CryptoError) throw new CliError(error.message, EXIT.failure, { cause: error });
    throw error;
  }
  const delegation =
    options.delegation === undefined ? undefined : _chainFor(options.delegation, identity.keys.ed25519);
  const result = await callEndpoint({
    identity,
    ...(delegation && { delegation }),
    relays: [...new Set(options.relay)],
    to: options.to,
    kind: options.kind,
    payload,
    timeoutMs: options.timeoutMs,
    onRotation: (notice) => io.err(`warning: ${notice}\n`),
    ...(options.trustRoot !== undefined && {
      trust: { roots: [...new Set(options.trustRoot)], label: '--trust-root' },
    }),
  });
  if (!result.ok) {
    io.out(`${JSON.stringify({ error: result.error })}\n`);
    return EXIT.failure;
  }
  io.out(`${JSON.stringify(result.payload)}\n`);
  const isError = (result.payload as { isError?: unknown } | null)?.isError === true;
  return isError ? EXIT.toolError : EXIT.ok;
}

/** The chain file's links, checked one by one, and refused unless its last link delegates to the caller's key. */
function _chainFor(path: string, callerKey: string): Delegation[] {
  const chain = readChainFile('--delegation', path);
  const last = chain[chain.length - 1]!;
  if (last.delegated_key !== callerKey) {
    throw new CliError(
      `--delegation ${path}: the chain delegates to ${last.delegated_key}, but --key is ${callerKey}: give the chain that register wrote for this key`,
    );
  }
  return chain;
}
