/**
 * The `xprotocol-devserver` command line. One entry point maps every failure to an exit code:
 * 0 success (and a clean stop on SIGINT/SIGTERM), 1 failure (a bad config, a relay or adapter
 * that cannot start, a demo step that failed), 2 usage errors. stdout carries only data (the
 * `--demo` answer, the `--mcp-proxy` MCP protocol, `--help`/`--version` when asked); the banner,
 * the event log, warnings and errors go to stderr.
 * @module
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { _UsageError } from './_usage-error.js';
import type { _Flags } from './cli-modes.js';
import { DEFAULT_RELAY_PORT } from './paths.js';
import { createStyle, type Style } from './style.js';
import { DEVSERVER_VERSION } from './version.js';

/** Exit codes of `xprotocol-devserver`. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** Where the CLI writes, and what stops a long-running mode. */
export interface DevserverCliContext {
  /** Data (stdout). */
  out(text: string): void;
  /** Messages for people (stderr). */
  err(text: string): void;
  /** Decorations for stderr. Default: colour when stderr is a TTY and `NO_COLOR` is unset. */
  style?: Style;
  /** What `~` is (default `os.homedir()`). */
  home?: string;
  /** Resolves when a serving mode should stop. Default: the first SIGINT or SIGTERM. */
  stopped?: () => Promise<string>;
}

function _port(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) > 65_535) {
    throw new InvalidArgumentError(`expected a port number from 0 to 65535, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

function _program(ctx: DevserverCliContext): Command {
  return new Command('xprotocol-devserver')
    .description(
      'The XProtocol dev bundle: a local relay (SQLite event store), the adapter wrapping your MCP server, and a pretty event log. Dev only.',
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
    .option('--demo', 'start everything in a temporary directory, make one real call through the relay, stop')
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
    .addHelpText(
      'after',
      `
Examples:
  xprotocol-devserver --demo
  xprotocol-devserver --mcp-command "npx @modelcontextprotocol/server-filesystem /tmp" --namespace com.demo.fs
  xprotocol-devserver --config ./xprotocol-mcp-adapter.yml --relay-port 0
  xprotocol-devserver --mcp-proxy

Exit codes: 0 success or a clean stop (Ctrl-C), 1 failure, 2 usage error.`,
    )
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (text) => ctx.out(text), writeErr: (text) => ctx.err(text) });
}

/** Checks that exactly one mode is asked for, with only the flags it uses. */
function _checkFlags(flags: _Flags): 'config' | 'mcp-command' | 'demo' | 'mcp-proxy' {
  const modes = (
    [
      ['config', flags.config !== undefined, '--config'],
      ['mcp-command', flags.mcpCommand !== undefined, '--mcp-command'],
      ['demo', flags.demo === true, '--demo'],
      ['mcp-proxy', flags.mcpProxy === true, '--mcp-proxy'],
    ] as const
  ).filter(([, on]) => on);
  if (modes.length !== 1) {
    throw new _UsageError(
      modes.length === 0
        ? 'expected one of --config FILE, --mcp-command "CMD ARGS", --demo or --mcp-proxy'
        : `expected one of --config, --mcp-command, --demo and --mcp-proxy, got ${modes.map(([, , flag]) => flag).join(' and ')}`,
    );
  }
  const mode = modes[0]![0];
  if (flags.namespace !== undefined && mode !== 'mcp-command') {
    throw new _UsageError('--namespace goes with --mcp-command');
  }
  if (mode === 'demo' && (flags.db !== undefined || flags.key !== undefined)) {
    throw new _UsageError('--demo works in a temporary directory: --db and --key do not apply');
  }
  if (mode === 'mcp-proxy' && flags.db !== undefined) {
    throw new _UsageError('--mcp-proxy runs no relay: --db does not apply');
  }
  return mode;
}

/**
 * Runs `xprotocol-devserver` with `argv` (as `process.argv`) and resolves with the exit code.
 * Never calls `process.exit`: the bin sets `process.exitCode` so streams flush.
 */
export async function runDevserverCli(
  argv: readonly string[],
  ctx: DevserverCliContext = {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  },
): Promise<number> {
  const style = ctx.style ?? createStyle();
  const program = _program(ctx);
  let flags: _Flags;
  let mode: ReturnType<typeof _checkFlags>;
  try {
    program.parse([...argv]);
    flags = program.opts<_Flags>();
    mode = _checkFlags(flags);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (error instanceof _UsageError) {
      ctx.err(`xprotocol-devserver: ${error.message}\n(add --help for usage)\n`);
      return EXIT.usage;
    }
    throw error;
  }
  try {
    // The modes load the adapter, the relay and the bridge: only once the flags are known good.
    const modes = await import('./cli-modes.js');
    if (mode === 'demo') return await modes._demo(flags, ctx, style);
    if (mode === 'mcp-proxy') return await modes._proxy(flags, ctx);
    return await modes._serve(mode, flags, ctx, style);
  } catch (error) {
    if (error instanceof _UsageError) {
      ctx.err(`xprotocol-devserver: ${error.message}\n(add --help for usage)\n`);
      return EXIT.usage;
    }
    ctx.err(`xprotocol-devserver: ${(error as Error)?.message ?? String(error)}\n`);
    return EXIT.failure;
  }
}
