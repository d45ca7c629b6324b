/**
 * Per-source translation (docs/design.md §2: annotations and related schemas need the sibling
 * tools). Every tool of the source ends up in exactly one of: `contracts`, `refused` (with a
 * reason) or `excluded` (not in `tool_allowlist`).
 *
 * Names (docs/protocol.md §10.1): `.` and `/` in a tool name become `_`. When several tools map to
 * the same kind, the one whose name needed no mapping keeps it and the others are refused; if none
 * or several are unmapped, all of them are refused. A name sent twice refuses both. The outcome
 * does not depend on the order of the tools.
 * @module
 */
import { DEFAULT_QUALITY_FLOOR, DEFAULT_QUALITY_THRESHOLD } from '@xprotocol/semantic';
import { isValidCapability } from './capability.js';
import type { CapabilityInferenceMode } from './capability-inference.js';
import type { SchemaContract } from './contract.js';
import { TranslateError } from './errors.js';
import { isJsonObject } from './json.js';
import { assertNamespace, toolKind } from './kind.js';
import type { SchemaLimits } from './schema-safety.js';
import { SchemaCompiler } from './schema-validator.js';
import type { SiblingTool, TranslationSeams } from './seams.js';
import { translatePrompt } from './translate-prompt.js';
import { type ToolOverride, translateTool } from './translate-tool.js';
import type { Refusal, TranslationWarning } from './translation-report.js';

/** One `mcp_sources` entry and what its server listed. */
export interface TranslateSourceInput {
  /** `mcp_sources[].name`. */
  readonly name: string;
  /** `xprotocol_namespace`. */
  readonly namespace: string;
  /** The `tools/list` result's tools (all pages), as received. */
  readonly tools: readonly unknown[];
  /** The `prompts/list` result's prompts, as received (optional). */
  readonly prompts?: readonly unknown[] | undefined;
  /** `schema_overrides`, by tool name. */
  readonly overrides?: Readonly<Record<string, ToolOverride>> | undefined;
  readonly capabilityInference?: CapabilityInferenceMode | undefined;
  readonly capabilities?: readonly string[] | undefined;
  /** `tool_allowlist`; absent or empty exposes every tool. */
  readonly allowlist?: readonly string[] | undefined;
  /** The adapter's version, recorded in every contract's `source.adapter_version`. */
  readonly adapterVersion: string;
  /** `description_quality_threshold` (docs/design.md §7): warn below; default 0.40. */
  readonly descriptionQualityThreshold?: number | undefined;
  /** `description_quality_floor` (docs/design.md §7): refuse below; default 0.20. */
  readonly descriptionQualityFloor?: number | undefined;
}

/** Options that are not part of the configuration. */
export interface TranslateSourceOptions {
  readonly seams?: TranslationSeams | undefined;
  readonly limits?: SchemaLimits | undefined;
  readonly compiler?: SchemaCompiler | undefined;
}

/** The outcome of a source's translation; every list is sorted (contracts by kind, the others by name). */
export interface SourceTranslation {
  contracts: SchemaContract[];
  refused: Refusal[];
  /** Tools left out by `tool_allowlist`. */
  excluded: string[];
  warnings: TranslationWarning[];
}

/**
 * Translates every tool (and prompt) of one source.
 * Throws {@link TranslateError} for configuration errors that concern the whole source (a bad
 * namespace, name or `capabilities` entry); everything about a single tool is a refusal instead.
 * @example
 * const out = translateSource({ name: 'filesystem', namespace: 'com.acme.filesystem',
 *   adapterVersion: '0.1.0', tools: listed.tools });
 * out.contracts.map((c) => c.kind); out.refused; // [{ tool, entry, code, reason, pointer? }]
 */
export function translateSource(
  input: TranslateSourceInput,
  options: TranslateSourceOptions = {},
): SourceTranslation {
  if (typeof input.name !== 'string' || input.name === '') {
    throw new TranslateError(
      'INVALID_CONTRACT',
      `mcp_sources[].name: expected a non-empty string, got ${JSON.stringify(input.name)}`,
    );
  }
  assertNamespace(input.namespace);
  const mode = input.capabilityInference ?? 'auto';
  for (const cap of input.capabilities ?? []) {
    if (!isValidCapability(cap)) {
      throw new TranslateError(
        'INVALID_CAPABILITY',
        `${input.name}.capabilities: expected dot-separated segments of [A-Za-z0-9_-]+, got ${JSON.stringify(cap)}`,
      );
    }
  }
  const threshold = input.descriptionQualityThreshold ?? DEFAULT_QUALITY_THRESHOLD;
  const floor = input.descriptionQualityFloor ?? DEFAULT_QUALITY_FLOOR;
  for (const [key, value] of [
    ['description_quality_threshold', threshold],
    ['description_quality_floor', floor],
  ] as const) {
    if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
      throw new TranslateError(
        'INVALID_CONTRACT',
        `${input.name}.${key}: expected a number from 0 to 1, got ${JSON.stringify(value)}`,
      );
    }
  }
  if (floor > threshold) {
    throw new TranslateError(
      'INVALID_CONTRACT',
      `${input.name}: description_quality_floor (${floor}) must not exceed description_quality_threshold (${threshold})`,
    );
  }
  const compiler = options.compiler ?? new SchemaCompiler();
  const contracts: SchemaContract[] = [];
  const refused: Refusal[] = [];
  const excluded: string[] = [];
  const warnings: TranslationWarning[] = [];
  const allow =
    input.allowlist !== undefined && input.allowlist.length > 0 ? new Set(input.allowlist) : undefined;

  // 1. allowlist, duplicates and kinds (order-independent)
  const names = new Map<string, number>();
  for (const tool of input.tools) {
    if (isJsonObject(tool) && typeof tool.name === 'string')
      names.set(tool.name, (names.get(tool.name) ?? 0) + 1);
  }
  const candidates: { value: unknown; name: string; kind: string }[] = [];
  const others: unknown[] = [];
  for (const tool of input.tools) {
    if (!isJsonObject(tool) || typeof tool.name !== 'string') {
      others.push(tool);
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
    const kind = toolKind(input.namespace, name);
    if (!kind.ok) {
      refused.push({ tool: name, entry: 'tool', code: 'INVALID_NAME', reason: kind.reason });
      continue;
    }
    candidates.push({ value: tool, name, kind: kind.kind });
  }
  const byKind = new Map<string, typeof candidates>();
  for (const c of candidates) byKind.set(c.kind, [...(byKind.get(c.kind) ?? []), c]);
  const accepted: typeof candidates = [];
  for (const [kind, group] of byKind) {
    if (group.length === 1) {
      accepted.push(group[0] as (typeof candidates)[number]);
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
  for (const value of others) {
    const r = translateTool(value, {
      server: input.name,
      namespace: input.namespace,
      adapterVersion: input.adapterVersion,
    });
    if (!r.ok) refused.push(r.refusal);
  }
  if (allow !== undefined) {
    for (const name of [...allow].sort()) {
      if (!names.has(name))
        warnings.push({
          code: 'UNKNOWN_ALLOWLIST_ENTRY',
          message: `${input.name}.tool_allowlist names ${JSON.stringify(name)}, which the server does not list`,
        });
    }
  }
  for (const name of Object.keys(input.overrides ?? {}).sort()) {
    if (!names.has(name))
      warnings.push({
        code: 'UNKNOWN_OVERRIDE',
        message: `${input.name}.schema_overrides names ${JSON.stringify(name)}, which the server does not list`,
      });
  }

  // 2. translate each accepted tool, with its siblings
  accepted.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  const siblings: SiblingTool[] = accepted.map((c) => {
    const v = c.value as { description?: unknown };
    const override = input.overrides?.[c.name]?.description;
    const description =
      typeof override === 'string' ? override : typeof v.description === 'string' ? v.description : undefined;
    return description !== undefined
      ? { name: c.name, kind: c.kind, description }
      : { name: c.name, kind: c.kind };
  });
  for (const c of accepted) {
    const r = translateTool(c.value, {
      server: input.name,
      namespace: input.namespace,
      adapterVersion: input.adapterVersion,
      capabilityInference: mode,
      capabilities: input.capabilities,
      override: Object.hasOwn(input.overrides ?? {}, c.name) ? input.overrides?.[c.name] : undefined,
      siblings,
      seams: options.seams,
      limits: options.limits,
      compiler,
      quality: { threshold, floor },
    });
    if (r.ok) {
      contracts.push(r.contract);
      warnings.push(...r.warnings);
    } else refused.push(r.refusal);
  }

  // 3. prompts (same collision rule as tools)
  const promptGroups = new Map<
    string,
    { name: string; contract: SchemaContract; warnings: TranslationWarning[] }[]
  >();
  for (const value of input.prompts ?? []) {
    const r = translatePrompt(value, {
      server: input.name,
      namespace: input.namespace,
      adapterVersion: input.adapterVersion,
      capabilityInference: mode,
      capabilities: input.capabilities,
      seams: options.seams,
    });
    if (!r.ok) {
      refused.push(r.refusal);
      continue;
    }
    const name = (r.contract.source as { mcp_prompt: string }).mcp_prompt;
    promptGroups.set(r.contract.kind, [
      ...(promptGroups.get(r.contract.kind) ?? []),
      { name, contract: r.contract, warnings: r.warnings },
    ]);
  }
  for (const [kind, group] of promptGroups) {
    const unmapped = group.filter((p) => kind.endsWith(`.${p.name}`));
    const keeper =
      group.length === 1
        ? group[0]
        : unmapped.length === 1 && group.filter((p) => p.name === unmapped[0]?.name).length === 1
          ? unmapped[0]
          : undefined;
    for (const p of group) {
      if (p === keeper) {
        contracts.push(p.contract);
        warnings.push(...p.warnings);
      } else
        refused.push({
          tool: p.name,
          entry: 'prompt',
          code: 'NAME_COLLISION',
          reason: `prompt ${JSON.stringify(p.name)} maps to kind ${kind}, which ${group.length - 1} other prompt(s) also map to`,
        });
    }
  }

  contracts.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  refused.sort((a, b) =>
    _cmp(`${a.entry}\u0000${a.tool}\u0000${a.reason}`, `${b.entry}\u0000${b.tool}\u0000${b.reason}`),
  );
  excluded.sort();
  warnings.sort((a, b) =>
    _cmp(
      `${a.tool ?? ''}\u0000${a.code}\u0000${a.message}`,
      `${b.tool ?? ''}\u0000${b.code}\u0000${b.message}`,
    ),
  );
  return { contracts, refused, excluded, warnings };
}

function _cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
