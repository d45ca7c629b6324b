/**
 * `calls --config FILE [--json]` and `replay <id> --config FILE` (docs/cli.md): the calls the
 * adapter running with this config recorded (face calls made with an idempotency key; docs/operating.md,
 * "Idempotency and replay"), read from its state database, found as `start` and `status` find it
 * and opened read-only. Nothing is run: `replay` shows the recorded request and result.
 * @module
 */
import { type RecordedCall, readRecordedCalls } from '@xprotocol/mcp-bridge';
import { statePathOf } from '../runtime/state-path.js';
import { CliError, type CliIo, EXIT } from './cli-shape.js';
import { readConfig } from './config-commands.js';
import { stateStemOf } from './state-stem.js';

/** `calls`: one line per recorded call, newest first (or a JSON array); returns the exit code. */
export async function listCalls(options: { config: string; json?: boolean }, io: CliIo): Promise<number> {
  const calls = await _recorded(options.config, io);
  if (options.json) {
    io.out(`${JSON.stringify(calls.map(_summary), null, 2)}\n`);
    return EXIT.ok;
  }
  if (calls.length === 0) io.err('no recorded calls\n');
  for (const call of calls) {
    const s = _summary(call);
    io.out(`${s.id}  ${s.recorded_at}  ${s.tool}  key=${s.idempotency_key}  caller=${s.principal ?? '-'}\n`);
  }
  return EXIT.ok;
}

/** `replay <id>`: the recorded call as JSON, request and result; never runs it. */
export async function replayCall(id: string, options: { config: string }, io: CliIo): Promise<number> {
  const calls = await _recorded(options.config, io);
  const call = calls.find((c) => c.id === id);
  if (!call) {
    throw new CliError(
      `no recorded call ${JSON.stringify(id)}: expected one of the ids \`xprotocol-adapter calls --config ${options.config}\` lists (${calls.length} recorded)`,
    );
  }
  io.out(
    `${JSON.stringify(
      {
        ..._summary(call),
        request: { method: 'tools/call', params: { name: call.tool, arguments: call.arguments } },
        result: call.result,
      },
      null,
      2,
    )}\n`,
  );
  return EXIT.ok;
}

function _summary(call: RecordedCall) {
  return {
    id: call.id,
    recorded_at: new Date(call.recordedAt).toISOString(),
    principal: call.principal,
    idempotency_key: call.idempotencyKey,
    tool: call.tool,
    contract_version: call.contractVersion,
    arguments_sha256: call.argumentsSha256,
  };
}

/** The recorded calls of the state database `config` names. */
async function _recorded(configPath: string, io: CliIo): Promise<RecordedCall[]> {
  const { config } = readConfig(configPath, io);
  if (config.stateDatabase === ':memory:')
    throw new CliError('state_database is ":memory:": nothing is recorded where another process can read it');
  let stem: string;
  try {
    stem = await stateStemOf(config);
  } catch (error) {
    throw new CliError(`identity.key_file: ${(error as Error).message}`, EXIT.failure, { cause: error });
  }
  try {
    return readRecordedCalls(statePathOf(config.stateDatabase, stem));
  } catch (error) {
    throw new CliError((error as Error).message, EXIT.failure, { cause: error });
  }
}
