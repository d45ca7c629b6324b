/**
 * Which tools of a source get a kind (docs/protocol.md §10.1), before any of them is translated:
 * `tool_allowlist` leaves some out, a name listed twice refuses both, a name that maps to no kind is
 * refused, and tools whose names map to the same kind are settled by the collision rule (the one
 * whose name needed no mapping keeps it). Also warns about allowlist and override entries that name
 * no listed tool. Nothing here depends on the order of the tools.
 * @module
 */
import { isJsonObject } from './json.js';
import { toolKind } from './kind.js';
import type { ToolOverride } from './translate-tool.js';
import type { Refusal, TranslationWarning } from './translation-report.js';

/** A listed tool with a string name, and the kind that name maps to. */
export interface _NamedTool {
  readonly value: unknown;
  readonly name: string;
  readonly kind: string;
}

/** The tool list sorted out: who is translated, who is only refused. */
export interface _ScreenedTools {
  /** How many times the server lists each tool name. */
  readonly names: ReadonlyMap<string, number>;
  /** The tools that keep their kind. */
  readonly accepted: _NamedTool[];
  /** Entries without a string name: their translation says what is wrong with them. */
  readonly unnamed: readonly unknown[];
}

/**
 * Sorts the listed tools into the accepted ones (each with its kind) and the unnamed ones; names
 * left out by `allow` go to `excluded`, refused names (listed twice, no kind, a lost collision) to
 * `refused`.
 */
export function _screenToolNames(
  namespace: string,
  tools: readonly unknown[],
  allow: ReadonlySet<string> | undefined,
  refused: Refusal[],
  excluded: string[],
): _ScreenedTools {
  const names = _countNames(tools);
  const candidates: _NamedTool[] = [];
  const unnamed: unknown[] = [];
  for (const tool of tools) {
    if (!isJsonObject(tool) || typeof tool.name !== 'string') {
      unnamed.push(tool);
      continue;
    }
    const name = tool.name;
    if (allow !== undefined && !allow.has(name)) {
      excluded.push(name);
      continue;
    }
    if ((names.get(name) ?? 0) > 1) {
      refused.push({
        tool: name,
        entry: 'tool',
        code: 'NAME_COLLISION',
        reason: `the server lists ${names.get(name)} tools named ${JSON.stringify(name)}`,
      });
      continue;
    }
    const kind = toolKind(namespace, name);
    if (!kind.ok) {
      refused.push({ tool: name, entry: 'tool', code: 'INVALID_NAME', reason: kind.reason });
      continue;
    }
    candidates.push({ value: tool, name, kind: kind.kind });
  }
  return { names, accepted: _settleKindCollisions(candidates, refused), unnamed };
}

/** How many times each string tool name is listed. */
function _countNames(tools: readonly unknown[]): Map<string, number> {
  const names = new Map<string, number>();
  for (const tool of tools) {
    if (isJsonObject(tool) && typeof tool.name === 'string')
      names.set(tool.name, (names.get(tool.name) ?? 0) + 1);
  }
  return names;
}

/**
 * Of the tools that map to one kind, the single one whose name needed no mapping keeps it; every
 * other one is refused, naming its rivals.
 */
function _settleKindCollisions(candidates: readonly _NamedTool[], refused: Refusal[]): _NamedTool[] {
  const byKind = new Map<string, _NamedTool[]>();
  for (const c of candidates) byKind.set(c.kind, [...(byKind.get(c.kind) ?? []), c]);
  const accepted: _NamedTool[] = [];
  for (const [kind, group] of byKind) {
    if (group.length === 1) {
      accepted.push(group[0] as _NamedTool);
      continue;
    }
    const unmapped = group.filter((c) => kind.endsWith(`.${c.name}`));
    const keeper = unmapped.length === 1 ? unmapped[0] : undefined;
    if (keeper !== undefined) accepted.push(keeper);
    for (const c of group) {
      if (c === keeper) continue;
      const rivals = group
        .filter((o) => o !== c)
        .map((o) => JSON.stringify(o.name))
        .sort()
        .join(', ');
      refused.push({
        tool: c.name,
        entry: 'tool',
        code: 'NAME_COLLISION',
        reason: `tool ${JSON.stringify(c.name)} maps to kind ${kind}, which ${rivals} also map${group.length > 2 ? '' : 's'} to ("." and "/" become "_")`,
      });
    }
  }
  return accepted;
}

/** Warns about `tool_allowlist` and `schema_overrides` entries that name no listed tool. */
export function _warnUnknownToolNames(
  source: string,
  names: ReadonlyMap<string, number>,
  allow: ReadonlySet<string> | undefined,
  overrides: Readonly<Record<string, ToolOverride>> | undefined,
  warnings: TranslationWarning[],
): void {
  if (allow !== undefined) {
    for (const name of [...allow].sort()) {
      if (!names.has(name))
        warnings.push({
          code: 'UNKNOWN_ALLOWLIST_ENTRY',
          message: `${source}.tool_allowlist names ${JSON.stringify(name)}, which the server does not list`,
        });
    }
  }
  for (const name of Object.keys(overrides ?? {}).sort()) {
    if (!names.has(name))
      warnings.push({
        code: 'UNKNOWN_OVERRIDE',
        message: `${source}.schema_overrides names ${JSON.stringify(name)}, which the server does not list`,
      });
  }
}
