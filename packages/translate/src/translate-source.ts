/**
 * Per-source translation (docs/design.md §2: annotations and related schemas need the sibling
 * tools). Every tool of the source ends up in exactly one of: `contracts`, `refused` (with a
 * reason) or `excluded` (not in `tool_allowlist`).
 *
 * Names (docs/protocol.md §10.1): `.` and `/` in a tool name become `_`. When several tools map to
 * the same kind, the one whose name needed no mapping keeps it and the others are refused; if none
 * or several are unmapped, all of them are refused. A name sent twice refuses both. The outcome
 * does not depend on the order of the tools. The steps: the names are screened
 * (`source-tool-names.ts`), each accepted tool is translated with its siblings, then the prompts
 * (`source-prompts.ts`).
 * @module
 */

import { isValidCapability } from '@xprotocol/crypto';
import { DEFAULT_QUALITY_FLOOR, DEFAULT_QUALITY_THRESHOLD } from '@xprotocol/semantic';
import type { CapabilityInferenceMode } from './capability-inference.js';
import type { SchemaContract } from './contract.js';
import { TranslateError } from './errors.js';
import { assertNamespace } from './kind.js';
import type { SchemaLimits } from './schema-safety.js';
import { SchemaCompiler } from './schema-validator.js';
import type { SiblingTool, TranslationSeams } from './seams.js';
import { _translateSourcePrompts } from './source-prompts.js';
import { type _NamedTool, _screenToolNames, _warnUnknownToolNames } from './source-tool-names.js';
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
  /** The `resources/templates/list` result's templates, as received (optional). */
  readonly resourceTemplates?: readonly unknown[] | undefined;
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
 * Translates every tool (and prompt and resource template) of one source.
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
  const quality = _checkSourceInput(input);
  const out: SourceTranslation = { contracts: [], refused: [], excluded: [], warnings: [] };
  const allow =
    input.allowlist !== undefined && input.allowlist.length > 0 ? new Set(input.allowlist) : undefined;
  // 1. allowlist, duplicates and kinds (order-independent)
  const screened = _screenToolNames(input.namespace, input.tools, allow, out.refused, out.excluded);
  _refuseUnnamedTools(input, screened.unnamed, out.refused);
  _warnUnknownToolNames(input.name, screened.names, allow, input.overrides, out.warnings);
  // 2. translate each accepted tool, with its siblings
  _translateAcceptedTools(input, options, quality, screened.accepted, out);
  // 3. prompts and resource templates (same collision rule as tools)
  const entryContext = {
    server: input.name,
    namespace: input.namespace,
    adapterVersion: input.adapterVersion,
    seams: options.seams,
  };
  _translateSourcePrompts(input.prompts ?? [], entryContext, out, 'prompt');
  _translateSourcePrompts(input.resourceTemplates ?? [], entryContext, out, 'resource_template');
  return _sorted(out);
}

/**
 * Checks what concerns the whole source (its name, namespace, `capabilities` and quality
 * thresholds) and returns the thresholds in force. Throws {@link TranslateError}.
 */
function _checkSourceInput(input: TranslateSourceInput): { threshold: number; floor: number } {
  if (typeof input.name !== 'string' || input.name === '') {
    throw new TranslateError(
      'INVALID_CONTRACT',
      `mcp_sources[].name: expected a non-empty string, got ${JSON.stringify(input.name)}`,
    );
  }
  assertNamespace(input.namespace);
  for (const cap of input.capabilities ?? []) {
    if (!isValidCapability(cap)) {
      throw new TranslateError(
        'INVALID_CAPABILITY',
        `${input.name}.capabilities: expected dot-separated segments of [A-Za-z0-9_-]+, got ${JSON.stringify(cap)}`,
      );
    }
  }
  return _qualityThresholds(input);
}

/** `description_quality_threshold` and `_floor`, defaulted and checked (0 to 1, floor ≤ threshold). */
function _qualityThresholds(input: TranslateSourceInput): { threshold: number; floor: number } {
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
  return { threshold, floor };
}

/** Entries without a string name are refused with what their translation finds wrong. */
function _refuseUnnamedTools(
  input: TranslateSourceInput,
  unnamed: readonly unknown[],
  refused: Refusal[],
): void {
  for (const value of unnamed) {
    const r = translateTool(value, {
      server: input.name,
      namespace: input.namespace,
      adapterVersion: input.adapterVersion,
    });
    if (!r.ok) refused.push(r.refusal);
  }
}

/** Translates the accepted tools in kind order, each seeing all of them as its siblings. */
function _translateAcceptedTools(
  input: TranslateSourceInput,
  options: TranslateSourceOptions,
  quality: { threshold: number; floor: number },
  accepted: _NamedTool[],
  out: SourceTranslation,
): void {
  accepted.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  const siblings = accepted.map((c) => _sibling(c, input.overrides));
  const compiler = options.compiler ?? new SchemaCompiler();
  for (const c of accepted) {
    const r = translateTool(c.value, {
      server: input.name,
      namespace: input.namespace,
      adapterVersion: input.adapterVersion,
      capabilityInference: input.capabilityInference ?? 'auto',
      capabilities: input.capabilities,
      override: Object.hasOwn(input.overrides ?? {}, c.name) ? input.overrides?.[c.name] : undefined,
      siblings,
      seams: options.seams,
      limits: options.limits,
      compiler,
      quality,
    });
    if (r.ok) {
      out.contracts.push(r.contract);
      out.warnings.push(...r.warnings);
    } else out.refused.push(r.refusal);
  }
}

/** A tool as its siblings' annotations see it: the overriding description wins. */
function _sibling(tool: _NamedTool, overrides: TranslateSourceInput['overrides']): SiblingTool {
  const v = tool.value as { description?: unknown };
  const override = overrides?.[tool.name]?.description;
  const description =
    typeof override === 'string' ? override : typeof v.description === 'string' ? v.description : undefined;
  return description !== undefined
    ? { name: tool.name, kind: tool.kind, description }
    : { name: tool.name, kind: tool.kind };
}

/** Every list sorted: contracts by kind, the others by name (the outcome is order-independent). */
function _sorted(out: SourceTranslation): SourceTranslation {
  const { contracts, refused, excluded, warnings } = out;
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
