// The exit codes of both CLIs hold when the error comes from another installed copy of commander or
// of this package (a global install gives the devserver and the adapter a copy each): runProgram
// knows the errors by their shape and code, never by `instanceof`.
import { describe, expect, it } from 'vitest';
import { EXIT, runProgram } from '../src/index.js';

/** An error as another copy of commander throws it: same shape, another class. */
function foreignCommanderError(code: string, exitCode: number): Error {
  return Object.assign(new Error(`(${code})`), { code, exitCode, nestedError: undefined });
}

describe('runProgram with errors from other copies', () => {
  const run = async (error: unknown) => {
    const err: string[] = [];
    const code = await runProgram('tool', { out: () => {}, err: (t) => err.push(t) }, async () => {
      throw error;
    });
    return { code, err: err.join('') };
  };

  it('--help and --version from another commander exit 0 and print nothing more', async () => {
    expect(await run(foreignCommanderError('commander.helpDisplayed', 0))).toEqual({
      code: EXIT.ok,
      err: '',
    });
    expect(await run(foreignCommanderError('commander.version', 0))).toEqual({ code: EXIT.ok, err: '' });
  });

  it('a usage error from another commander exits 2 without printing it a second time (commander did)', async () => {
    expect(await run(foreignCommanderError('commander.unknownOption', 1))).toEqual({
      code: EXIT.usage,
      err: '',
    });
  });

  it('a CliError from another copy of this package keeps its exit code and message', async () => {
    const foreign = Object.assign(new Error('bad --port'), {
      code: 'XPROTOCOL_CLI_ERROR',
      exitCode: EXIT.usage,
    });
    expect(await run(foreign)).toEqual({
      code: EXIT.usage,
      err: 'tool: bad --port\n(add --help for usage)\n',
    });
  });

  it('anything else is a failure with its message', async () => {
    expect(await run(new Error('boom'))).toEqual({ code: EXIT.failure, err: 'tool: boom\n' });
  });
});
