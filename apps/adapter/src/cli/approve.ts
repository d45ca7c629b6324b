/**
 * `approve <source> [tool] --config FILE [--dry-run]`: an operator adopts the tool definitions
 * that tool pinning holds back (docs/security.md, "Tool pinning"; docs/cli.md). For each tool
 * waiting in the state database it prints what changed — a line diff of the pinned and the new
 * definition, and the description-lint findings — then pins the new definition. The running
 * adapter publishes it at its next refresh of the source (or on restart).
 * @module
 */
import { nodeCipher, nodeSignatures, readKeyFile } from '@xprotocol/crypto/node';
import { StateDatabase, type ToolPin } from '@xprotocol/mcp-bridge';
import type { AdapterConfig } from '../config/index.js';
import { stateDatabasePath, stateFileStem } from '../runtime/state-path.js';
import { CliError, type CliIo } from './cli-shape.js';
import { readConfig } from './config-commands.js';

/** Runs the command; prints the diffs on stdout, the summary on stderr. */
export async function approve(
  source: string,
  tool: string | undefined,
  options: { config: string; dryRun?: boolean },
  io: CliIo,
): Promise<void> {
  const { config } = readConfig(options.config, io);
  const entry = config.mcpSources.find((s) => s.name === source);
  if (!entry) {
    throw new CliError(
      `no mcp_sources entry named ${JSON.stringify(source)} in ${config.file}; have ${config.mcpSources.map((s) => s.name).join(', ') || 'none'}`,
    );
  }
  const state = new StateDatabase(stateDatabasePath(config.stateDatabase, await _stateStem(config)));
  try {
    const pins = [...state.toolPins(source).values()];
    const waiting = pins.filter(
      (pin) => pin.pending !== undefined && (tool === undefined || pin.tool === tool),
    );
    if (waiting.length === 0) {
      const others = pins.filter((pin) => pin.pending !== undefined).map((pin) => pin.tool);
      if (tool !== undefined) {
        throw new CliError(
          `nothing waits for approval for tool ${JSON.stringify(tool)} of source ${source}${others.length > 0 ? `; waiting: ${others.join(', ')}` : ''}`,
        );
      }
      io.err(`nothing waits for approval in source ${source}\n`);
      return;
    }
    for (const pin of waiting) io.out(_describe(pin));
    if (options.dryRun) {
      io.err(
        `dry run: ${waiting.length} tool${waiting.length === 1 ? '' : 's'} of ${source} would be approved\n`,
      );
      return;
    }
    state.approveTools(source, tool);
    io.err(
      `approved ${waiting.length} tool${waiting.length === 1 ? '' : 's'} of ${source} (${waiting.map((p) => p.tool).join(', ')}); a running adapter publishes ${waiting.length === 1 ? 'it' : 'them'} at its next refresh of the source (within ${entry.schemaRefreshIntervalSeconds} s) or on restart\n`,
    );
  } finally {
    await state.close();
  }
}

/** What an approval adopts: the hashes, the findings and a line diff of the two definitions. */
function _describe(pin: ToolPin): string {
  const pending = pin.pending!;
  const from = pin.hash === undefined ? 'not published yet' : `pinned ${pin.hash.slice(0, 12)}`;
  const lines = [`${pin.source} ${pin.tool}: ${from} → ${pending.hash.slice(0, 12)}`];
  for (const finding of pending.findings) lines.push(`  finding ${finding.code}: ${finding.message}`);
  lines.push(`--- ${pin.hash === undefined ? '(none)' : 'pinned'}`, '+++ new');
  const before = pin.definition === undefined ? [] : JSON.stringify(pin.definition, null, 2).split('\n');
  lines.push(..._lineDiff(before, JSON.stringify(pending.definition, null, 2).split('\n')));
  return `${lines.join('\n')}\n\n`;
}

/** A line diff (longest common subsequence): `  ` kept, `- ` removed, `+ ` added. */
function _lineDiff(a: readonly string[], b: readonly string[]): string[] {
  if (a.length * b.length > 4_000_000) return [...a.map((l) => `- ${l}`), ...b.map((l) => `+ ${l}`)];
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(`  ${a[i++]}`);
      j++;
    } else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      out.push(`+ ${b[j++]}`);
    } else {
      out.push(`- ${a[i++]}`);
    }
  }
  return out;
}

/**
 * The default state file's stem, as `start` derives it: from the key in `identity.key_file`, or
 * in a pure MCP gateway from its sources; unused when `state_database` is set.
 */
async function _stateStem(config: AdapterConfig): Promise<string> {
  const { keyFile } = config.identity;
  // state_database names the file: the stem goes unused.
  if (config.stateDatabase !== undefined) return '';
  if (keyFile === undefined) return stateFileStem(config);
  const { keys } = await readKeyFile(keyFile, { signatures: nodeSignatures, cipher: nodeCipher });
  return stateFileStem(config, keys.ed25519);
}
