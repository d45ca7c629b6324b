/**
 * One MCP tool → one schema contract (docs/design.md §2). The steps, in order: shape of the tool,
 * kind (naming rule), schema safety (§8.5) of `inputSchema` and `outputSchema`, both compile in ajv
 * by their own dialect, operator override, capability (§4.3), response schema, semantic annotation
 * (seam), grammar (seam). The first failing step refuses the tool with its reason.
 * @module
 */
import { DEFAULT_QUALITY_FLOOR, DEFAULT_QUALITY_THRESHOLD } from '@xprotocol/semantic';
import { _cloneJson, _preview } from './_json-util.js';
import { canonicalSchemaJson } from './canonical.js';
import { type CapabilityInferenceMode, inferCapability } from './capability-inference.js';
import type { GrammarStatus, McpTool, McpToolSource, SchemaContract } from './contract.js';
import { defaultSeams } from './defaults.js';
import { xpErrorPayloadSchema } from './error-map.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';
import { resultKind, toolKind } from './kind.js';
import { callToolResultSchema } from './response-schema.js';
import {
  checkJsonSafety,
  checkSchemaSafety,
  DEFAULT_SCHEMA_LIMITS,
  type SchemaLimits,
} from './schema-safety.js';
import { SchemaCompiler, unknownFormats } from './schema-validator.js';
import type { CompileGrammar, SiblingTool, TranslationSeams } from './seams.js';
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
  const label =
    isJsonObject(value) && typeof value.name === 'string'
      ? value.name
      : _preview(isJsonObject(value) ? value.name : value);
  let knownKind: string | undefined;
  const refuse = (code: RefusalCode, reason: string, pointer?: string): ToolTranslation => {
    const refusal: Refusal = { tool: label, entry: 'tool', code, reason };
    if (pointer !== undefined) refusal.pointer = pointer;
    if (knownKind !== undefined) refusal.kind = knownKind;
    return { ok: false, refusal };
  };
  const read = _readTool(value);
  if (typeof read === 'string') return refuse('INVALID_TOOL', read);
  const tool = read;
  const warnings: TranslationWarning[] = [];
  const warn = (code: TranslationWarning['code'], message: string): void => {
    warnings.push({ tool: tool.name, code, message });
  };

  const kind = toolKind(ctx.namespace, tool.name);
  if (!kind.ok) return refuse('INVALID_NAME', kind.reason);
  knownKind = kind.kind;

  const limits = ctx.limits ?? DEFAULT_SCHEMA_LIMITS;
  const published: JsonObject = _published(tool);
  const json = checkJsonSafety(published, limits.maxDepth + 2);
  if (!json.ok) return refuse('UNSAFE_SCHEMA', json.reason, json.pointer);
  const compiler = ctx.compiler ?? new SchemaCompiler();
  for (const field of ['inputSchema', 'outputSchema'] as const) {
    const schema = tool[field];
    if (schema === undefined) continue;
    const safety = checkSchemaSafety(schema, { limits, base: `/${field}` });
    if (!safety.ok) return refuse('UNSAFE_SCHEMA', safety.reason, safety.pointer);
    if (safety.recursive)
      warn('RECURSIVE_SCHEMA', `${field} is recursive (allowed: every cycle steps into a child value)`);
    // compile the canonical form: ajv reports problems in key order, which must not be the input's
    const canonical = JSON.parse(canonicalSchemaJson(schema)) as JsonObject;
    const compiled = compiler.compile(canonical);
    if (!compiled.ok) {
      // A pattern whose matching time cannot be bounded is a safety refusal, not a broken schema.
      const unbounded = compiled.unboundedPattern;
      return unbounded
        ? refuse(
            'UNSAFE_SCHEMA',
            `${field}${unbounded.pointer}: ${unbounded.message}`,
            `/${field}${unbounded.pointer}`,
          )
        : refuse('INVALID_SCHEMA', `${field}: ${compiled.reason}`, `/${field}`);
    }
    if (!compiled.unicodeRegExp) {
      warn(
        'NON_UNICODE_PATTERN',
        `${field} has a pattern that is valid only without the regular-expression "u" flag; it is validated that way`,
      );
    }
    const formats = unknownFormats(schema);
    if (formats.length > 0) {
      warn(
        'UNKNOWN_FORMAT',
        `${field} uses format${formats.length > 1 ? 's' : ''} ${formats.map((f) => JSON.stringify(f)).join(', ')} that no validator here knows; values are not checked against ${formats.length > 1 ? 'them' : 'it'}`,
      );
    }
  }

  const override = ctx.override;
  if (override !== undefined) {
    const bad = _checkOverride(override);
    if (bad !== undefined) return refuse('INVALID_OVERRIDE', `schema_overrides.${tool.name}${bad}`);
    for (const key of Object.keys(override)) {
      if (!OVERRIDE_KEYS.includes(key))
        warn(
          'UNKNOWN_OVERRIDE',
          `schema_overrides.${tool.name}.${key} is not a known override (${OVERRIDE_KEYS.join(', ')}); ignored`,
        );
    }
  }

  const seams = ctx.seams ?? {};
  const capability = inferCapability({
    toolName: tool.name,
    annotations: tool.annotations,
    namespace: ctx.namespace,
    mode: ctx.capabilityInference ?? 'auto',
    capabilities: ctx.capabilities,
    override: override?.required_capability,
    classifyToolName: seams.classifyToolName ?? defaultSeams.classifyToolName,
  });
  if (!capability.ok) return refuse('CAPABILITY_UNMAPPED', capability.reason);

  const description = override?.description ?? tool.description ?? '';
  if (description.trim() === '')
    warn('NO_DESCRIPTION', 'the tool has no description; agents cannot discover it by meaning');
  const title = override?.title ?? tool.title;
  const effective: McpTool = { ...tool, description };

  const response = callToolResultSchema(tool.outputSchema);
  if (!response.embedded) {
    warn(
      'OUTPUT_SCHEMA_NOT_EMBEDDED',
      'outputSchema uses dynamic references and cannot be embedded in the response schema; structuredContent is described as {"type":"object"} (the full outputSchema is under source.outputSchema)',
    );
  }

  let semantic: JsonObject | undefined;
  const annotate = seams.annotate ?? defaultSeams.annotate;
  if (annotate !== undefined) {
    try {
      semantic = annotate({
        kind: kind.kind,
        namespace: ctx.namespace,
        tool: effective,
        siblings: ctx.siblings ?? [{ name: tool.name, kind: kind.kind, description }],
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

  const score = semantic?.description_quality_score;
  if (typeof score === 'number') {
    const floor = ctx.quality?.floor ?? DEFAULT_QUALITY_FLOOR;
    const threshold = ctx.quality?.threshold ?? DEFAULT_QUALITY_THRESHOLD;
    if (score < floor - 1e-9) {
      const r = refuse(
        'LOW_QUALITY',
        `description quality score ${score} is below the publication floor ${floor} (description_quality_floor); improve the description or set schema_overrides.${tool.name}.description`,
      );
      if (!r.ok) r.refusal.description_quality_score = score;
      return r;
    }
    if (score < threshold - 1e-9) {
      warn(
        'LOW_QUALITY_DESCRIPTION',
        `description quality score ${score} is below ${threshold} (description_quality_threshold): agents may not find this tool; it is flagged in the announce`,
      );
    }
  }

  const grammar = _grammar(tool.inputSchema, seams.compileGrammar ?? defaultSeams.compileGrammar, warn);

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

  const contract: SchemaContract = {
    kind: kind.kind,
    version: '1.0.0',
    description,
    ...(title !== undefined ? { title } : {}),
    ...(semantic !== undefined ? { semantic } : {}),
    source,
    payload: _cloneJson(tool.inputSchema),
    response: { kind: resultKind(kind.kind), payload: response.schema },
    error_response: { kind: 'xp.error', payload: xpErrorPayloadSchema() },
    auth: { required_capability: capability.capability },
    gbnf_grammar: grammar.gbnf,
    gbnf_status: grammar.status,
  };
  return { ok: true, contract, warnings };
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

/** The fields a contract publishes from a tool (what the safety check covers). */
function _published(tool: McpTool): JsonObject {
  const out: JsonObject = { name: tool.name, inputSchema: tool.inputSchema };
  if (tool.title !== undefined) out.title = tool.title;
  if (tool.description !== undefined) out.description = tool.description;
  if (tool.outputSchema !== undefined) out.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) out.annotations = tool.annotations;
  if (tool.execution !== undefined) out.execution = tool.execution;
  return out;
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
