/**
 * The `xprotocol-adapter` command line (docs/cli.md lists every command). One entry point maps
 * every failure to an exit code; stdout carries only data, help goes to stdout only when asked for, and
 * errors with usage hints go to stderr.
 * @module
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { ADAPTER_VERSION } from '../version.js';
import { approve } from './approve.js';
import { call } from './call.js';
import { type CliIo, cliProgram, EXIT, processIo, runProgram } from './cli-shape.js';
import { schemas, start, testMcp, validate } from './config-commands.js';
import { dnsRecord } from './dns-record.js';
import { gatewayCommand } from './gateway.js';
import { keygen } from './keygen.js';
import { login } from './login.js';
import { listCalls, replayCall } from './recorded-calls.js';
import { addRegisterCommand } from './register.js';
import { addRevokeCommand } from './revoke.js';
import { addRotateCommand } from './rotate.js';
import { status } from './status.js';

function positiveInteger(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError(`expected a positive integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Builds the program; `setExit` receives each command's exit code. */
function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = cliProgram(
    new Command('xprotocol-adapter')
      .description('Bridge MCP servers and XProtocol endpoints, both ways, from one YAML file.')
      .version(ADAPTER_VERSION, '-V, --version'),
    io,
  );

  program
    .command('keygen')
    .description('create a key file (Ed25519 + X25519) and print its public keys as JSON')
    .requiredOption('-o, --output <file>', 'where to write the key file (mode 0600)')
    .option('--force', 'replace an existing key file')
    .action(async (options: { output: string; force?: boolean }) => keygen(options, io));

  addRegisterCommand(program, io);
  addRevokeCommand(program, io);
  addRotateCommand(program, io);

  program
    .command('start')
    .description(
      'run the adapter: serve wrapped MCP servers over XProtocol, and XProtocol endpoints over MCP',
    )
    .requiredOption('-c, --config <file>', 'the YAML configuration')
    .addOption(
      new Option(
        '--log-format <format>',
        'log lines as readable text or JSON (default: logging.format)',
      ).choices(['auto', 'pretty', 'json']),
    )
    .action(async (options: { config: string; logFormat?: 'auto' | 'pretty' | 'json' }) =>
      start(options, io),
    );

  program.addCommand(gatewayCommand(io));

  program
    .command('validate')
    .description('check a configuration file; exit 0 when it is valid')
    .requiredOption('-c, --config <file>', 'the YAML configuration')
    .option('--connect', 'also connect to every MCP source and translate its tools')
    .action(async (options: { config: string; connect?: boolean }) => validate(options, io));

  program
    .command('schemas')
    .description('print the schema contracts the adapter publishes, sorted by kind')
    .requiredOption('-c, --config <file>', 'the YAML configuration')
    .addOption(new Option('--json', 'print the contracts as a JSON array').conflicts('gbnf'))
    .option('--gbnf', "print each contract's GBNF grammar")
    .action(async (options: { config: string; json?: boolean; gbnf?: boolean }) => schemas(options, io));

  program
    .command('test-mcp')
    .description('connect to one MCP source and print what it offers')
    .requiredOption('-c, --config <file>', 'the YAML configuration')
    .requiredOption('-s, --source <name>', 'the mcp_sources entry')
    .action(async (options: { config: string; source: string }) => testMcp(options, io));

  program
    .command('approve')
    .description(
      'adopt tool definitions held back by tool pinning (a changed or flagged tool): --dry-run shows each diff and its hash, --hash pins exactly that definition',
    )
    .argument('<source>', 'the mcp_sources entry')
    .argument('[tool]', 'one tool of that source (default: every tool waiting)')
    .requiredOption('-c, --config <file>', 'the YAML configuration')
    .option('--dry-run', 'show what waits, with the hash to approve it by; change nothing')
    .option(
      '--hash <hash>',
      'approve the definition with this hash, as --dry-run printed it (repeat for several)',
      collect,
    )
    .action(
      async (
        source: string,
        tool: string | undefined,
        options: { config: string; dryRun?: boolean; hash?: string[] },
      ) => approve(source, tool, options, io),
    );

  program
    .command('login')
    .description(
      'authorize the adapter once at the OAuth authorization server of an mcp_sources entry (auth.type: oauth): prints the URL to open, waits for the redirect on 127.0.0.1, stores the tokens',
    )
    .argument('<source>', 'the mcp_sources entry')
    .requiredOption('-c, --config <file>', 'the YAML configuration')
    .action(async (source: string, options: { config: string }) => login(source, options, io));

  program
    .command('status')
    .description(
      'show what the adapter running with this config reports: its key, chain, sources, relays, calls and last errors; exit 3 when none runs',
    )
    .requiredOption('-c, --config <file>', 'the YAML configuration')
    .option('--json', 'print the status as JSON')
    .action(async (options: { config: string; json?: boolean }) => setExit(await status(options, io)));

  program
    .command('dns-record')
    .description(
      'print the DNS TXT record that publishes this key at _xprotocol.<domain> (nothing is sent to DNS)',
    )
    .option('-c, --config <file>', 'the YAML configuration: identity.key_file and discovery.dns_name')
    .option('-k, --key <file>', 'a key file (instead of --config)')
    .option('-d, --domain <domain>', 'the domain callers reach the endpoint by (default: discovery.dns_name)')
    .option('--json', 'print {"name","type","value"} instead of a zone-file line')
    .action(async (options: { config?: string; key?: string; domain?: string; json?: boolean }) =>
      dnsRecord(options, io),
    );

  addCallCommand(program, io, setExit);
  addRecordedCallCommands(program, io, setExit);
  return program;
}

/** `calls` and `replay`: what the adapter recorded, read from its state database, never run. */
function addRecordedCallCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('calls')
    .description(
      'list the calls the adapter with this config recorded (face calls made with an idempotency key), newest first',
    )
    .requiredOption('-c, --config <file>', 'the YAML configuration')
    .option('--json', 'print them as JSON')
    .action(async (options: { config: string; json?: boolean }) => setExit(await listCalls(options, io)));

  program
    .command('replay')
    .description('show one recorded call (its request and result) without running it')
    .argument('<id>', 'the id `calls` lists')
    .requiredOption('-c, --config <file>', 'the YAML configuration')
    .action(async (id: string, options: { config: string }) => setExit(await replayCall(id, options, io)));
}

/** `call`: one call to an XProtocol endpoint, its answer's exit code handed to `setExit`. */
function addCallCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('call')
    .description('call an XProtocol endpoint once; prints the answer payload as JSON')
    .requiredOption('-k, --key <file>', 'your key file')
    .requiredOption('-r, --relay <url>', 'a relay URL (repeat for several)', collect)
    .requiredOption('-t, --to <ed25519>', 'the endpoint key, ed25519:<64 hex>')
    .requiredOption('--kind <kind>', 'the schema kind to call')
    .requiredOption('-p, --payload <json>', 'the call payload as JSON')
    .option('--timeout-ms <n>', 'give up after this many milliseconds', positiveInteger, 30_000)
    .option(
      '--delegation <file>',
      'present your chain file (from register) to an endpoint that trusts its root',
    )
    .option(
      '--trust-root <ed25519>',
      "a root key whose delegation chain must vouch for the endpoint (repeat for several); without it the endpoint's chain is not asked for",
      collect,
    )
    .action(
      async (options: {
        key: string;
        relay: string[];
        to: string;
        kind: string;
        payload: string;
        timeoutMs: number;
        delegation?: string;
        trustRoot?: string[];
      }) => setExit(await call(options, io)),
    );
}

/**
 * Runs the CLI with `argv` (as `process.argv`) and resolves with the exit code. Never calls
 * `process.exit`: the bin sets `process.exitCode` so streams flush.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  return runProgram('xprotocol-adapter', io, async () => {
    await program.parseAsync([...argv]);
    return exitCode;
  });
}
