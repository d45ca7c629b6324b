/**
 * `xprotocol-adapter call --key FILE --relay URL --to ed25519:… --kind KIND --payload JSON
 * [--timeout-ms N]`: one signed, encrypted call through the relays.
 *
 * The recipient's X25519 key comes from its `xp.endpoint.announce`. Output (docs/cli.md): the
 * answer's payload as JSON and exit 0; `{"error":{"code","message"}}` and exit 1; a tool result
 * with `isError: true` is printed as a payload with exit 3; usage errors exit 2.
 * @module
 */
import { CryptoError, isKeyString } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures, readKeyFile } from '@xprotocol/crypto/node';
import { BridgeError, XpCaller } from '@xprotocol/mcp-bridge';
import { RelayPool } from '@xprotocol/relay-client';
import { CliError, EXIT, usageError } from './cli-error.js';
import type { CliIo } from './io.js';
import { expandHome } from './paths.js';

/** Options of {@link call}. */
export interface CallOptions {
  key: string;
  relay: string[];
  to: string;
  kind: string;
  payload: string;
  timeoutMs: number;
}

/** Runs the call; returns the exit code. */
export async function call(options: CallOptions, io: CliIo): Promise<number> {
  if (!isKeyString(options.to, 'ed25519')) {
    throw usageError(
      `--to: expected ed25519: followed by 64 lowercase hex digits, got ${JSON.stringify(options.to)}`,
    );
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
  const deadline = Date.now() + options.timeoutMs;
  const pool = await RelayPool.open({ urls: options.relay, reconnect: { initialMs: 250, maxMs: 2000 } });
  try {
    const caller = new XpCaller({ identity, pool, signatures: nodeSignatures, cipher: nodeCipher });
    let to: Awaited<ReturnType<XpCaller['resolve']>>;
    try {
      to = await caller.resolve(options.to, Math.max(1, deadline - Date.now()));
    } catch (error) {
      if (error instanceof BridgeError) {
        io.out(`${JSON.stringify({ error: { code: 'NOT_FOUND', message: error.message } })}\n`);
        return EXIT.failure;
      }
      throw error;
    }
    const outcome = await caller.call({
      to: to.keys,
      kind: options.kind,
      payload,
      timeoutMs: Math.max(1, deadline - Date.now()),
    });
    if (!outcome.ok) {
      io.out(`${JSON.stringify({ error: { code: outcome.error.code, message: outcome.error.message } })}\n`);
      return EXIT.failure;
    }
    io.out(`${JSON.stringify(outcome.payload)}\n`);
    const isError = (outcome.payload as { isError?: unknown } | null)?.isError === true;
    return isError ? EXIT.toolError : EXIT.ok;
  } finally {
    await pool.close();
  }
}
