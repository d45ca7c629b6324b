/**
 * One MCP tool → one schema contract (docs/design.md §2). The steps, in order: shape of the tool,
 * kind (naming rule), schema safety (§8.5) of `inputSchema` and `outputSchema`, both compile in ajv
 * by their own dialect (`tool-schema-checks.ts`), operator override, capability (§4.3), response
 * schema, semantic annotation (seam), description quality, grammar (seam). The first failing step
 * refuses the tool with its reason.
 * @module
 */
import { DEFAULT_QUALITY_FLOOR, DEFAULT_QUALITY_THRESHOLD } from '@xprotocol/semantic';
import { _cloneJson, _preview } from './_json-util.js';
import { type CapabilityInferenceMode, inferCapability } from './capability-inference.js';
import type { GrammarStatus, McpTool, McpToolSource, SchemaContract } from './contract.js';
import { defaultSeams } from './defaults.js';
import { xpErrorPayloadSchema } from './error-map.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';
import { resultKind, toolKind } from './kind.js';
import { callToolResultSchema } from './response-schema.js';
import { checkJsonSafety, DEFAULT_SCHEMA_LIMITS, type SchemaLimits } from './schema-safety.js';
import { SchemaCompiler } from './schema-validator.js';
import type { CompileGrammar, SiblingTool, TranslationSeams } from './seams.js';
import { _checkToolSchemas } from './tool-schema-checks.js';
import type { Refusal, RefusalCode, TranslationWarning } from './translation-report.js';

/** `schema_overrides.<tool>` (docs/config.md). */
export interface ToolOverride {
  description?: string;
  title?: string;
  required_capability?: string;
  semantic?: JsonObject;
}

/** Everything a tool's translation depends on besides the tool. */
export interface TranslateToolContext {
  /** `mcp_sources[].name`. */
  readonly server: string;
  /** `xprotocol_namespace`, already checked with `assertNamespace`. */
  readonly namespace: string;
  readonly adapterVersion: string;
  readonly capabilityInference?: CapabilityInferenceMode | undefined;
  readonly capabilities?: readonly string[] | undefined;
  readonly override?: ToolOverride | undefined;
  /** The source's translatable tools (for annotations); defaults to this tool alone. */
  readonly siblings?: readonly SiblingTool[] | undefined;
  readonly seams?: TranslationSeams | undefined;
  readonly limits?: SchemaLimits | undefined;
  /** Reuse one compiler across tools (it caches an ajv instance per dialect). */
  readonly compiler?: SchemaCompiler | undefined;
  /**
   * Description quality (docs/design.md §7): below `floor` the tool is refused (`LOW_QUALITY`),
   * below `threshold` it is published with a warning. Read from
   * `semantic.description_quality_score`; without a score nothing is checked. Defaults 0.40 / 0.20.
   */
  readonly quality?:
    | { readonly threshold?: number | undefined; readonly floor?: number | undefined }
    | undefined;
}

/** A translated tool, or its refusal. */
export type ToolTranslation =
  | { ok: true; contract: SchemaContract; warnings: TranslationWarning[] }
  | { ok: false; refusal: Refusal };

const OVERRIDE_KEYS = ['description', 'title', 'required_capability', 'semantic'];

/** Why a step refuses the tool; `score` only for `LOW_QUALITY`. */
interface _ToolProblem {
  readonly code: RefusalCode;
  readonly reason: string;
  readonly pointer?: string | undefined;
  readonly score?: number | undefined;
}

/** Records a warning about the tool being translated. */
type _Warn = (code: TranslationWarning['code'], message: string) => void;

/**
 * Translates one MCP tool. Deterministic: the same tool (whatever the key order of its objects,
 * apart from `properties` declaration order) gives the same canonical contract.
 * @example
 * const r = translateTool(
 *   { name: 'read_file', description: 'Read a file', inputSchema: { type: 'object' } },
 *   { server: 'filesystem', namespace: 'com.acme.filesystem', adapterVersion: '0.1.0' },
 * );
 * if (r.ok) r.contract.auth.required_capability; // 'com.acme.filesystem.read'
 */
export function translateTool(value: unknown, ctx: TranslateToolContext): ToolTranslation {
  const tool = _readTool(value);
  if (typeof tool === 'string')
    return _refused(_label(value), undefined, { code: 'INVALID_TOOL', reason: tool });
  const kind = toolKind(ctx.namespace, tool.name);
  if (!kind.ok) return _refused(tool.name, undefined, { code: 'INVALID_NAME', reason: kind.reason });
  const warnings: TranslationWarning[] = [];
  const warn: _Warn = (code, message) => {
    warnings.push({ tool: tool.name, code, message });
  };
  const compiler = ctx.compiler ?? new SchemaCompiler();
  const invalid =
    _checkToolSchemas(tool, ctx.limits ?? DEFAULT_SCHEMA_LIMITS, compiler, warn) ??
    _checkToolOverride(tool.name, ctx.override, warn);
  if (invalid !== undefined) return _refused(tool.name, kind.kind, invalid);
  const seams = ctx.seams ?? {};
  const capability = _capabilityOf(tool, ctx, seams);
  if (!capability.ok)
    return _refused(tool.name, kind.kind, { code: 'CAPABILITY_UNMAPPED', reason: capability.reason });
  const described = _described(tool, ctx.override, warn);
  const response = _responseSchema(tool, warn);
  const semantic = _semanticOf(tool, kind.kind, described, ctx, seams, warn);
  const lowQuality = _checkQuality(tool.name, semantic, ctx.quality, warn);
  if (lowQuality !== undefined) return _refused(tool.name, kind.kind, lowQuality);
  const grammar = _grammar(tool.inputSchema, seams.compileGrammar ?? defaultSeams.compileGrammar, warn);
  const contract = _contract(tool, ctx, {
    kind: kind.kind,
    described,
    semantic,
    response,
    capability: capability.capability,
    grammar,
  });
  return { ok: true, contract, warnings };
}

/** The tool's name for a refusal: its name, or a preview of what stands in its place. */
function _label(value: unknown): string {
  return isJsonObject(value) && typeof value.name === 'string'
    ? value.name
    : _preview(isJsonObject(value) ? value.name : value);
}

/** The refusal of the tool `label`, with the kind it would have had once its name mapped. */
function _refused(label: string, kind: string | undefined, problem: _ToolProblem): ToolTranslation {
  const refusal: Refusal = { tool: label, entry: 'tool', code: problem.code, reason: problem.reason };
  if (problem.pointer !== undefined) refusal.pointer = problem.pointer;
  if (kind !== undefined) refusal.kind = kind;
  if (problem.score !== undefined) refusal.description_quality_score = problem.score;
  return { ok: false, refusal };
}

/** Checks the operator's `schema_overrides.<tool>`; unknown keys are only warned about. */
function _checkToolOverride(
  toolName: string,
  override: ToolOverride | undefined,
  warn: _Warn,
): _ToolProblem | undefined {
  if (override === undefined) return undefined;
  const bad = _checkOverride(override);
  if (bad !== undefined) return { code: 'INVALID_OVERRIDE', reason: `schema_overrides.${toolName}${bad}` };
  for (const key of Object.keys(override)) {
    if (!OVERRIDE_KEYS.includes(key))
      warn(
        'UNKNOWN_OVERRIDE',
        `schema_overrides.${toolName}.${key} is not a known override (${OVERRIDE_KEYS.join(', ')}); ignored`,
      );
  }
  return undefined;
}

/** The capability a call of the tool requires (docs/design.md §4, "Inference"). */
function _capabilityOf(
  tool: McpTool,
  ctx: TranslateToolContext,
  seams: TranslationSeams,
): ReturnType<typeof inferCapability> {
  return inferCapability({
    toolName: tool.name,
    annotations: tool.annotations,
    namespace: ctx.namespace,
    mode: ctx.capabilityInference ?? 'auto',
    capabilities: ctx.capabilities,
    override: ctx.override?.required_capability,
    classifyToolName: seams.classifyToolName ?? defaultSeams.classifyToolName,
  });
}

/** How the contract describes the tool: the override's description and title win. */
interface _Described {
  readonly description: string;
  readonly title: string | undefined;
  /** The tool as the annotator sees it, with the effective description. */
  readonly effective: McpTool;
}

function _described(tool: McpTool, override: ToolOverride | undefined, warn: _Warn): _Described {
  const description = override?.description ?? tool.description ?? '';
  if (description.trim() === '')
    warn('NO_DESCRIPTION', 'the tool has no description; agents cannot discover it by meaning');
  const title = override?.title ?? tool.title;
  return { description, title, effective: { ...tool, description } };
}

/** The response schema (a `CallToolResult`), warning when `outputSchema` cannot be embedded. */
function _responseSchema(tool: McpTool, warn: _Warn): ReturnType<typeof callToolResultSchema> {
  const response = callToolResultSchema(tool.outputSchema);
  if (!response.embedded) {
    warn(
      'OUTPUT_SCHEMA_NOT_EMBEDDED',
      'outputSchema uses dynamic references and cannot be embedded in the response schema; structuredContent is described as {"type":"object"} (the full outputSchema is under source.outputSchema)',
    );
  }
  return response;
}

/**
 * The semantic annotation (through the seam; a failure is a warning), with the override's
 * `semantic` merged over it (which makes it no longer auto-generated).
 */
function _semanticOf(
  tool: McpTool,
  kind: string,
  described: _Described,
  ctx: TranslateToolContext,
  seams: TranslationSeams,
  warn: _Warn,
): JsonObject | undefined {
  const override = ctx.override;
  let semantic: JsonObject | undefined;
  const annotate = seams.annotate ?? defaultSeams.annotate;
  if (annotate !== undefined) {
    try {
      semantic = annotate({
        kind,
        namespace: ctx.namespace,
        tool: described.effective,
        siblings: ctx.siblings ?? [{ name: tool.name, kind, description: described.description }],
        override: override?.semantic,
      });
      const json = checkJsonSafety(semantic);
      if (!json.ok) throw new Error(`the annotation is not plain JSON at ${json.pointer}: ${json.reason}`);
    } catch (error) {
      warn(
        'ANNOTATE_FAILED',
        `semantic annotation failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  if (override?.semantic !== undefined && Object.keys(override.semantic).length > 0) {
    semantic = { ...(semantic ?? {}), ..._cloneJson(override.semantic) };
    if (typeof semantic.auto_generated === 'boolean') semantic.auto_generated = false;
  }
  return semantic;
}

/**
 * Description quality (docs/design.md §7), from the annotation's score: below the floor refuses
 * the tool, below the threshold warns. Without a score nothing is checked.
 */
function _checkQuality(
  toolName: string,
  semantic: JsonObject | undefined,
  quality: TranslateToolContext['quality'],
  warn: _Warn,
): _ToolProblem | undefined {
  const score = semantic?.description_quality_score;
  if (typeof score !== 'number') return undefined;
  const floor = quality?.floor ?? DEFAULT_QUALITY_FLOOR;
  const threshold = quality?.threshold ?? DEFAULT_QUALITY_THRESHOLD;
  if (score < floor - 1e-9) {
    return {
      code: 'LOW_QUALITY',
      reason: `description quality score ${score} is below the publication floor ${floor} (description_quality_floor); improve the description or set schema_overrides.${toolName}.description`,
      score,
    };
  }
  if (score < threshold - 1e-9) {
    warn(
      'LOW_QUALITY_DESCRIPTION',
      `description quality score ${score} is below ${threshold} (description_quality_threshold): agents may not find this tool; it is flagged in the announce`,
    );
  }
  return undefined;
}

/** What the contract is made of besides the tool and the context. */
interface _ContractParts {
  readonly kind: string;
  readonly described: _Described;
  readonly semantic: JsonObject | undefined;
  readonly response: ReturnType<typeof callToolResultSchema>;
  readonly capability: string;
  readonly grammar: { gbnf: string | null; status: GrammarStatus };
}

/** The schema contract, in its fixed key order. */
function _contract(tool: McpTool, ctx: TranslateToolContext, parts: _ContractParts): SchemaContract {
  const { kind, described, semantic, grammar } = parts;
  const title = described.title;
  return {
    kind,
    version: '1.0.0',
    description: described.description,
    ...(title !== undefined ? { title } : {}),
    ...(semantic !== undefined ? { semantic } : {}),
    source: _toolSource(tool, ctx),
    payload: _cloneJson(tool.inputSchema),
    response: { kind: resultKind(kind), payload: parts.response.schema },
    error_response: { kind: 'xp.error', payload: xpErrorPayloadSchema() },
    auth: { required_capability: parts.capability },
    gbnf_grammar: grammar.gbnf,
    gbnf_status: grammar.status,
  };
}

/** The contract's `source`: where the tool comes from, and its MCP fields kept as listed. */
function _toolSource(tool: McpTool, ctx: TranslateToolContext): McpToolSource {
  const source: McpToolSource = {
    type: 'mcp_adapter',
    mcp_server: ctx.server,
    mcp_tool: tool.name,
    namespace: ctx.namespace,
    adapter_version: ctx.adapterVersion,
  };
  if (tool.title !== undefined) source.title = tool.title;
  if (tool.annotations !== undefined) source.annotations = _cloneJson(tool.annotations);
  if (tool.outputSchema !== undefined) source.outputSchema = _cloneJson(tool.outputSchema);
  if (tool.execution !== undefined) source.execution = _cloneJson(tool.execution);
  return source;
}

/** Compiles the grammar through the seam, recording a failure instead of throwing. */
export function _grammar(
  schema: JsonObject,
  compile: CompileGrammar | undefined,
  warn: (code: TranslationWarning['code'], message: string) => void,
): { gbnf: string | null; status: GrammarStatus } {
  if (compile === undefined) return { gbnf: null, status: { state: 'not_compiled' } };
  try {
    const out = compile(schema);
    const warnings = [...out.warnings];
    if (!out.exact)
      warn(
        'GRAMMAR_APPROXIMATE',
        `the grammar is not exact for inputSchema${warnings.length > 0 ? `: ${warnings.join('; ')}` : ''}`,
      );
    return { gbnf: out.gbnf, status: { state: out.exact ? 'exact' : 'approximate', warnings } };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    warn('GRAMMAR_FAILED', `no grammar: ${reason}`);
    return { gbnf: null, status: { state: 'failed', reason } };
  }
}

/** Reads the fields of an MCP tool, or says which one is malformed. */
function _readTool(value: unknown): McpTool | string {
  if (!isJsonObject(value)) return `expected a tool object, got ${_preview(value)}`;
  if (typeof value.name !== 'string') return `name: expected a string, got ${_preview(value.name)}`;
  if (!isJsonObject(value.inputSchema)) {
    return `inputSchema: expected a JSON Schema object (MCP requires one), got ${_preview(value.inputSchema)}`;
  }
  const tool: McpTool = { name: value.name, inputSchema: value.inputSchema };
  for (const key of ['title', 'description'] as const) {
    const v = value[key] as JsonValue | undefined;
    if (v === undefined) continue;
    if (typeof v !== 'string') return `${key}: expected a string, got ${_preview(v)}`;
    tool[key] = v;
  }
  for (const key of ['outputSchema', 'annotations', 'execution'] as const) {
    const v = value[key] as JsonValue | undefined;
    if (v === undefined) continue;
    if (!isJsonObject(v)) return `${key}: expected an object, got ${_preview(v)}`;
    tool[key] = v;
  }
  return tool;
}

function _checkOverride(override: ToolOverride): string | undefined {
  if (!isJsonObject(override as unknown)) return `: expected an object, got ${_preview(override)}`;
  for (const key of ['description', 'title', 'required_capability'] as const) {
    const v: unknown = override[key];
    if (v !== undefined && typeof v !== 'string') return `.${key}: expected a string, got ${_preview(v)}`;
  }
  if (override.semantic !== undefined) {
    if (!isJsonObject(override.semantic))
      return `.semantic: expected an object, got ${_preview(override.semantic)}`;
    const json = checkJsonSafety(override.semantic);
    if (!json.ok) return `.semantic${json.pointer}: ${json.reason}`;
  }
  return undefined;
}
