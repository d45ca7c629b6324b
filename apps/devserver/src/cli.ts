/**
 * The `xprotocol-devserver` command line. One entry point maps every failure to an exit code:
 * 0 success (and a clean stop on SIGINT/SIGTERM), 1 failure (a bad config, a relay or adapter
 * that cannot start, a demo step that failed), 2 usage errors. stdout carries only data (the
 * `--demo` answer, the `--mcp-proxy` MCP protocol, `--help`/`--version` when asked); the banner,
 * the event log, warnings and errors go to stderr.
 * @module
 */
import { cliProgram, processIo, runProgram, usageError } from '@xprotocol/mcp-adapter';
import { Command, InvalidArgumentError } from 'commander';
import type { _Flags, _Mode, DevserverCliContext } from './cli-context.js';
import { DEFAULT_RELAY_PORT } from './paths.js';
import { createStyle } from './style.js';
import { DEVSERVER_VERSION } from './version.js';

function _port(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) > 65_535) {
    throw new InvalidArgumentError(`expected a port number from 0 to 65535, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

function _program(ctx: DevserverCliContext): Command {
  const program = new Command('xprotocol-devserver')
    .description(
      'The XProtocol dev bundle: a local relay (SQLite event store), the adapter wrapping your MCP server, a pretty event log and a web console. Without a mode flag it serves a demo server (server-filesystem over a temporary folder) until Ctrl-C. Dev only.',
    )
    .version(DEVSERVER_VERSION, '-V, --version')
    .option('-c, --config <file>', 'run the adapter with this YAML configuration (hot-reloaded on change)')
    .option(
      '--mcp-command <command>',
      'wrap one stdio MCP server: its command line, split shell-style (no shell)',
    )
    .option(
      '--namespace <namespace>',
      'the XProtocol namespace of --mcp-command tools (default com.demo.mcp)',
    )
    .option(
      '--demo',
      'start everything in a temporary directory, make one real call through the relay, stop (without any mode flag: serve that demo server until Ctrl-C)',
    )
    .option('--mcp-proxy', "serve MCP on stdio, calling the running devserver's adapter (for Claude Code)")
    .option(
      '--relay-port <port>',
      `local relay port on 127.0.0.1, 0 for any free one (default ${DEFAULT_RELAY_PORT})`,
      _port,
    )
    .option('--db <file>', 'the relay event store (default ~/.xprotocol/devserver/events.db)')
    .option(
      '--key <file>',
      "the adapter's dev key file, created if missing (default ~/.xprotocol/devserver/adapter.key)",
    )
    .option('--no-watch', 'do not reload --config when it changes')
    .option(
      '--console-port <port>',
      'the web console port on 127.0.0.1, 0 for any free one (default 0; its URL and token are in the banner)',
      _port,
    )
    .option('--no-console', 'do not serve the web console')
    .addHelpText(
      'after',
      `
Examples:
  xprotocol-devserver
  xprotocol-devserver --demo
  xprotocol-devserver --mcp-command "npx @modelcontextprotocol/server-filesystem /tmp" --namespace com.demo.fs
  xprotocol-devserver --config ./xprotocol-mcp-adapter.yml --relay-port 0
  xprotocol-devserver --mcp-proxy

Exit codes: 0 success or a clean stop (Ctrl-C), 1 failure, 2 usage error.`,
    );
  return cliProgram(program, ctx);
}

/** Checks that exactly one mode is asked for, with only the flags it uses. */
function _checkFlags(flags: _Flags): _Mode {
  const modes = (
    [
      ['config', flags.config !== undefined, '--config'],
      ['mcp-command', flags.mcpCommand !== undefined, '--mcp-command'],
      ['demo', flags.demo === true, '--demo'],
      ['mcp-proxy', flags.mcpProxy === true, '--mcp-proxy'],
    ] as const
  ).filter(([, on]) => on);
  if (modes.length > 1) {
    throw usageError(
      `expected at most one of --config, --mcp-command, --demo and --mcp-proxy, got ${modes.map(([, , flag]) => flag).join(' and ')}`,
    );
  }
  // No mode flag: the first ten minutes — the demo server and the console, until Ctrl-C.
  const mode: _Mode = modes[0]?.[0] ?? 'demo-server';
  if (flags.namespace !== undefined && mode !== 'mcp-command') {
    throw usageError('--namespace goes with --mcp-command');
  }
  if (mode === 'demo' && (flags.db !== undefined || flags.key !== undefined)) {
    throw usageError('--demo works in a temporary directory: --db and --key do not apply');
  }
  if ((mode === 'demo' || mode === 'mcp-proxy') && (flags.consolePort !== undefined || !flags.console)) {
    throw usageError(`--${mode} serves no web console: --console-port and --no-console do not apply`);
  }
  if (flags.consolePort !== undefined && !flags.console) {
    throw usageError('--console-port and --no-console contradict each other: choose one');
  }
  if (mode === 'mcp-proxy' && flags.db !== undefined) {
    throw usageError('--mcp-proxy runs no relay: --db does not apply');
  }
  return mode;
}

/**
 * Runs `xprotocol-devserver` with `argv` (as `process.argv`) and resolves with the exit code
 * (0 success or a clean stop, 1 failure, 2 usage error; the adapter's shared CLI conventions).
 * Never calls `process.exit`: the bin sets `process.exitCode` so streams flush.
 */
export async function runDevserverCli(
  argv: readonly string[],
  ctx: DevserverCliContext = processIo,
): Promise<number> {
  const style = ctx.style ?? createStyle();
  return runProgram('xprotocol-devserver', ctx, async () => {
    const program = _program(ctx);
    program.parse([...argv]);
    const flags = program.opts<_Flags>();
    const mode = _checkFlags(flags);
    // The modes load the relay and the event store: only once the flags are known good.
    const modes = await import('./cli-modes.js');
    if (mode === 'demo') return modes._demo(flags, ctx, style);
    if (mode === 'mcp-proxy') return modes._proxy(flags, ctx);
    return modes._serve(mode, flags, ctx, style);
  });
}
