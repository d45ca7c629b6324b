/**
 * `approve <source> [tool] --config FILE (--dry-run | --hash HASH…)`: an operator adopts the tool
 * definitions that tool pinning holds back (docs/security.md, "Tool pinning"; docs/cli.md). For
 * each tool waiting in the state database it prints what changed — the hash of the waiting
 * definition, the description-lint findings and a line diff of the pinned and the new definition,
 * every character that could act on a terminal or hide from the reader shown escaped — and, with
 * `--hash`, pins exactly the definition of that hash: a definition that changed since it was shown
 * is refused, never adopted unseen. The running adapter publishes it at its next refresh of the
 * source (or on restart).
 * @module
 */
import { escapeForDisplay, type ToolPin } from '@xprotocol/mcp-bridge';
import { openStateDatabase } from '../runtime/state-path.js';
import { CliError, type CliIo, usageError } from './cli-shape.js';
import { readConfig } from './config-commands.js';
import { stateStemOf } from './state-stem.js';

/** What a reviewer may pass to `--hash`: the hash `--dry-run` printed, or its first 12 digits or more. */
const _HASH = /^[0-9a-f]{12,64}$/;

/** Runs the command; prints the diffs on stdout, the summary on stderr. */
export async function approve(
  source: string,
  tool: string | undefined,
  options: { config: string; dryRun?: boolean; hash?: readonly string[] },
  io: CliIo,
): Promise<void> {
  const reviewed = (options.hash ?? []).map((h) => h.toLowerCase());
  const shown = `xprotocol-adapter approve ${source}${tool === undefined ? '' : ` ${tool}`} --config ${options.config}`;
  if (options.dryRun && reviewed.length > 0) throw usageError('--dry-run and --hash exclude each other');
  if (!options.dryRun && reviewed.length === 0) {
    throw usageError(
      `approve adopts only a definition you reviewed, by its hash: run ${shown} --dry-run, read what it shows, then run the command it prints (with --hash)`,
    );
  }
  for (const hash of reviewed) {
    if (!_HASH.test(hash)) {
      throw usageError(
        `--hash expects the hash ${shown} --dry-run printed (12 to 64 hex digits), got ${JSON.stringify(escapeForDisplay(hash))}`,
      );
    }
  }
  const { config } = readConfig(options.config, io);
  const entry = config.mcpSources.find((s) => s.name === source);
  if (!entry) {
    throw new CliError(
      `no mcp_sources entry named ${JSON.stringify(source)} in ${config.file}; have ${config.mcpSources.map((s) => s.name).join(', ') || 'none'}`,
    );
  }
  const state = openStateDatabase(config.stateDatabase, await stateStemOf(config));
  try {
    const pins = [...state.toolPins(source).values()];
    const waiting = pins.filter(
      (pin) => pin.pending !== undefined && (tool === undefined || pin.tool === tool),
    );
    if (waiting.length === 0) {
      const others = pins.filter((pin) => pin.pending !== undefined).map((pin) => _name(pin.tool));
      if (tool !== undefined) {
        throw new CliError(
          `nothing waits for approval for tool ${JSON.stringify(escapeForDisplay(tool))} of source ${source}${others.length > 0 ? `; waiting: ${others.join(', ')}` : ''}`,
        );
      }
      io.err(`nothing waits for approval in source ${source}\n`);
      return;
    }
    if (options.dryRun) {
      for (const pin of waiting) io.out(_describe(pin));
      const hashes = waiting.map((pin) => ` --hash ${pin.pending!.hash}`).join('');
      io.err(
        `dry run: ${waiting.length} tool${waiting.length === 1 ? '' : 's'} of ${source} would be approved; to approve exactly what is shown: ${shown}${hashes}\n`,
      );
      return;
    }
    const chosen = _match(waiting, reviewed, shown);
    for (const pin of chosen) io.out(_describe(pin));
    const outcome = state.approveTools(
      source,
      chosen.map((pin) => ({ tool: pin.tool, hash: pin.pending!.hash })),
    );
    if (!outcome.ok) {
      const was = chosen.find((pin) => pin.tool === outcome.tool)!.pending!.hash;
      throw _stale(outcome.tool, was, outcome.waiting, source, shown);
    }
    io.err(
      `approved ${chosen.length} tool${chosen.length === 1 ? '' : 's'} of ${source} (${chosen.map((p) => _name(p.tool)).join(', ')}); a running adapter publishes ${chosen.length === 1 ? 'it' : 'them'} at its next refresh of the source (within ${entry.schemaRefreshIntervalSeconds} s) or on restart\n`,
    );
  } finally {
    await state.close();
  }
}

/**
 * The waiting tools the reviewed hashes name: each hash must be the start of the hash of exactly
 * one waiting definition, else nothing is approved.
 */
function _match(waiting: readonly ToolPin[], reviewed: readonly string[], shown: string): ToolPin[] {
  const chosen: ToolPin[] = [];
  for (const hash of reviewed) {
    const matches = waiting.filter((pin) => pin.pending!.hash.startsWith(hash));
    if (matches.length > 1) {
      throw new CliError(
        `--hash ${hash} matches ${matches.length} waiting definitions (${matches.map((p) => _name(p.tool)).join(', ')}); give more of the hash ${shown} --dry-run printed`,
      );
    }
    const pin = matches[0];
    if (pin === undefined) {
      const only = waiting.length === 1 ? waiting[0]! : undefined;
      if (only) throw _stale(only.tool, hash, only.pending!.hash, only.source, shown);
      throw new CliError(
        `no definition waiting for approval has the hash ${hash} (waiting: ${waiting.map((p) => `${_name(p.tool)} ${p.pending!.hash.slice(0, 12)}`).join(', ')}): what you reviewed changed since it was shown; review again with ${shown} --dry-run`,
      );
    }
    if (!chosen.includes(pin)) chosen.push(pin);
  }
  return chosen;
}

/** The refusal when what waits is not what the reviewer saw. */
function _stale(
  tool: string,
  reviewed: string,
  waiting: string | undefined,
  source: string,
  shown: string,
): CliError {
  const now =
    waiting === undefined
      ? 'nothing waits for it any more'
      : `the definition waiting now is ${waiting.slice(0, 12)}`;
  return new CliError(
    `the definition of tool ${_name(tool)} of source ${source} changed since it was shown: you reviewed ${reviewed.slice(0, 12)}, ${now}; nothing was approved. Review it again with ${shown} --dry-run`,
  );
}

/** A server's tool name as a person reads it: quoted, nothing in it acting on the terminal. */
function _name(tool: string): string {
  return escapeForDisplay(JSON.stringify(tool));
}

/** What an approval adopts: the hashes, the findings and a line diff of the two definitions. */
function _describe(pin: ToolPin): string {
  const pending = pin.pending!;
  const from = pin.hash === undefined ? 'not published yet' : `pinned ${pin.hash.slice(0, 12)}`;
  const lines = [
    `${pin.source} ${pin.tool}: ${from} → ${pending.hash.slice(0, 12)}`,
    `  hash ${pending.hash}`,
  ];
  for (const finding of pending.findings) lines.push(`  finding ${finding.code}: ${finding.message}`);
  lines.push(`--- ${pin.hash === undefined ? '(none)' : 'pinned'}`, '+++ new');
  const before = pin.definition === undefined ? [] : JSON.stringify(pin.definition, null, 2).split('\n');
  lines.push(..._lineDiff(before, JSON.stringify(pending.definition, null, 2).split('\n')));
  // Everything here comes from a server: nothing in it may act on the reviewer's terminal.
  return `${lines.map(escapeForDisplay).join('\n')}\n\n`;
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
