/**
 * `xprotocol-adapter gateway [-- <command …>] [--stdio "<command line>"]… [--url <URL>]…`: a pure
 * MCP gateway in one line (docs/cli.md, "gateway"). It builds the configuration file of those
 * upstreams (gateway-config.ts), loads it with the loader `start` uses and runs it on the path
 * `start` runs ({@link serveConfig}), so every check and secure default is the file's: a face on
 * 127.0.0.1 with Host and Origin checks, body and result caps, rate limits, tool pinning, and a
 * bearer token — made for the run and printed once on stderr unless `--token-env` names one.
 * `--print-config` prints that file instead of running it.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { Command, InvalidArgumentError } from 'commander';
import { splitCommandLine } from '../config/command-line.js';
import { ConfigError, formatConfigIssue, type LoadedConfig, parseConfig } from '../config/index.js';
import { CliError, type CliIo, cliProgram, EXIT, usageError } from './cli-shape.js';
import { serveConfig } from './config-commands.js';
import { DEFAULT_TOKEN_ENV, type GatewayUpstream, gatewayYaml } from './gateway-config.js';

/** What the options of the command parse to. */
interface _GatewayOptions {
  stdio?: string[];
  url?: string[];
  env?: string[];
  port: number;
  tokenEnv?: string;
  rateLimit: number;
  printConfig?: boolean;
}

/** How the loader names the command's configuration in its messages. */
const GATEWAY_CONFIG_NAME = 'gateway-command-line.yml';
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const USAGE_HINT =
  "(put the server's command after --, as in: xprotocol-adapter gateway -- npx -y @modelcontextprotocol/server-memory; add --help for usage)";

/** The `gateway` command, to add to the program. */
export function gatewayCommand(io: CliIo): Command {
  return cliProgram(new Command('gateway'), io)
    .showHelpAfterError(USAGE_HINT)
    .description(
      'serve MCP servers (stdio commands or Streamable HTTP URLs) over Streamable HTTP on 127.0.0.1, as a pure MCP gateway, with no configuration file',
    )
    .argument('[command...]', "one stdio MCP server's program and arguments, after --")
    .option(
      '--stdio <command line>',
      'a stdio MCP server as one command line, split shell-style (repeatable)',
      _collect,
      [],
    )
    .option('--url <url>', 'a Streamable HTTP MCP server, http:// or https:// (repeatable)', _collect)
    .option(
      '--env <name>',
      'pass this variable of the environment to every stdio server (repeatable)',
      _collect,
      [],
    )
    .option('-p, --port <port>', 'the port to serve on, at 127.0.0.1', _port, 8767)
    .option(
      '--token-env <name>',
      'the variable holding the token clients must send (default: a new token, printed once on stderr)',
    )
    .option('--rate-limit <calls>', 'tool calls per minute per client session and server', _positive, 600)
    .option('--print-config', 'print the equivalent configuration file on stdout and exit')
    .action(async (command: string[], options: _GatewayOptions) => gateway(command, options, io));
}

/** Runs the command: prints the configuration, or serves until SIGINT or SIGTERM. */
async function gateway(command: string[], options: _GatewayOptions, io: CliIo): Promise<void> {
  const upstreams = _upstreams(command, options);
  const passEnv = options.env ?? [];
  for (const name of [...passEnv, ...(options.tokenEnv === undefined ? [] : [options.tokenEnv])]) {
    if (!ENV_NAME.test(name))
      throw usageError(
        `${JSON.stringify(name)}: expected an environment variable name ([A-Za-z_][A-Za-z0-9_]*)`,
      );
  }
  const tokenEnv = options.tokenEnv ?? DEFAULT_TOKEN_ENV;
  const yaml = gatewayYaml({
    upstreams,
    port: options.port,
    tokenEnv,
    passEnv,
    requestsPerMinute: options.rateLimit,
  });
  if (options.printConfig) {
    // Checked as `start` will load it, with every variable it names set to a stand-in.
    const standIns = Object.fromEntries([tokenEnv, ...passEnv].map((name) => [name, 'stand-in']));
    _load(yaml, { ...process.env, ...standIns }, io);
    io.out(yaml);
    return;
  }
  _checkVariables(options);
  const token = options.tokenEnv === undefined ? randomBytes(32).toString('base64url') : undefined;
  const env = token === undefined ? process.env : { ...process.env, [DEFAULT_TOKEN_ENV]: token };
  const { config } = _load(yaml, env, io);
  await serveConfig(config, (adapter) => {
    io.err(`xprotocol-adapter gateway: serving ${adapter.faceServer?.url}\n`);
    io.err(
      token === undefined
        ? `xprotocol-adapter gateway: clients must send  Authorization: Bearer <the value of ${tokenEnv}>\n`
        : `xprotocol-adapter gateway: clients must send  Authorization: Bearer ${token}  (made for this run; --token-env NAME sets one of your own)\n`,
    );
  });
}

/**
 * The upstreams, in order: each `--stdio`, the command after `--`, each `--url`. A command line
 * that does not split, a URL that is not http(s) or carries credentials, or none at all is a
 * usage error.
 */
function _upstreams(command: readonly string[], options: _GatewayOptions): GatewayUpstream[] {
  const upstreams: GatewayUpstream[] = (options.stdio ?? []).map((line) => {
    const split = splitCommandLine(line);
    if (!split.ok)
      throw usageError(`--stdio ${JSON.stringify(line)}: cannot split the command: ${split.reason}`);
    if (split.argv[0] === '')
      throw usageError(`--stdio ${JSON.stringify(line)}: the program (first word) is empty`);
    return { argv: split.argv };
  });
  if (command.length > 0) {
    if (command[0] === '') throw usageError('the program after -- is empty');
    upstreams.push({ argv: [...command] });
  }
  for (const url of options.url ?? []) upstreams.push({ url: _httpUrl(url) });
  if (upstreams.length === 0) {
    throw usageError(
      'expected an MCP server to serve: -- <command> [args…], --stdio "<command line>" or --url <http(s) URL>',
    );
  }
  return upstreams;
}

/** `text` when it is an http(s) URL without a user or password; a usage error otherwise. */
function _httpUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '')
    throw usageError(`--url ${JSON.stringify(text)}: expected an http:// or https:// URL`);
  if (url.username !== '' || url.password !== '')
    throw usageError(
      '--url: expected a URL without a user or password (not shown); use a configuration file with auth.token_env',
    );
  return text;
}

/** The variables the run reads are set: `--env` ones, and a non-empty `--token-env`. */
function _checkVariables(options: _GatewayOptions): void {
  for (const name of options.env ?? []) {
    if (process.env[name] === undefined)
      throw usageError(`--env ${name}: the variable is not set in this environment`);
  }
  const tokenEnv = options.tokenEnv;
  if (tokenEnv !== undefined && !process.env[tokenEnv])
    throw usageError(
      `--token-env ${tokenEnv}: the variable is not set or empty: it must hold the token clients send`,
    );
}

/** Loads the gateway's YAML as `start` loads a file; prints its warnings on stderr. */
function _load(yaml: string, env: NodeJS.ProcessEnv, io: CliIo): LoadedConfig {
  try {
    const loaded = parseConfig(yaml, GATEWAY_CONFIG_NAME, { env });
    for (const warning of loaded.warnings) io.err(`warning: ${formatConfigIssue(warning)}\n`);
    return loaded;
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, EXIT.failure, { cause: error });
    throw error;
  }
}

function _collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function _port(value: string): number {
  const port = Number(value);
  if (!/^[0-9]+$/.test(value) || port < 1 || port > 65535)
    throw new InvalidArgumentError('expected a port from 1 to 65535');
  return port;
}

function _positive(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1 || Number(value) > 1_000_000)
    throw new InvalidArgumentError('expected a whole number from 1 to 1000000');
  return Number(value);
}
