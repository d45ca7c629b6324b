/**
 * The schema checks of one MCP tool (docs/design.md §11, "Schema poisoning"): what the contract
 * would publish is plain, bounded JSON; `inputSchema` and `outputSchema` are safe schemas that
 * compile in ajv by their own dialect. A check that fails refuses the tool (with the JSON pointer at
 * fault); what is allowed but worth knowing (a recursive schema, a pattern valid only without the
 * "u" flag, a format no validator knows) is a warning.
 * @module
 */
import { canonicalSchemaJson } from './canonical.js';
import type { McpTool } from './contract.js';
import type { JsonObject } from './json.js';
import { checkJsonSafety, checkSchemaSafety, type SchemaLimits } from './schema-safety.js';
import { type SchemaCompiler, unknownFormats } from './schema-validator.js';
import type { RefusalCode, WarningCode } from './translation-report.js';

/** Why the schemas refuse the tool. */
export interface _SchemaProblem {
  readonly code: RefusalCode;
  readonly reason: string;
  readonly pointer?: string;
}

/** Checks the tool's published fields and both of its schemas; the first problem refuses it. */
export function _checkToolSchemas(
  tool: McpTool,
  limits: SchemaLimits,
  compiler: SchemaCompiler,
  warn: (code: WarningCode, message: string) => void,
): _SchemaProblem | undefined {
  const json = checkJsonSafety(_published(tool), limits.maxDepth + 2);
  if (!json.ok) return { code: 'UNSAFE_SCHEMA', reason: json.reason, pointer: json.pointer };
  for (const field of ['inputSchema', 'outputSchema'] as const) {
    const schema = tool[field];
    if (schema === undefined) continue;
    const problem = _checkSchema(field, schema, limits, compiler, warn);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** One schema: safe, compiling (in its canonical form), and what is worth a warning. */
function _checkSchema(
  field: 'inputSchema' | 'outputSchema',
  schema: JsonObject,
  limits: SchemaLimits,
  compiler: SchemaCompiler,
  warn: (code: WarningCode, message: string) => void,
): _SchemaProblem | undefined {
  const safety = checkSchemaSafety(schema, { limits, base: `/${field}` });
  if (!safety.ok) return { code: 'UNSAFE_SCHEMA', reason: safety.reason, pointer: safety.pointer };
  if (safety.recursive)
    warn('RECURSIVE_SCHEMA', `${field} is recursive (allowed: every cycle steps into a child value)`);
  // compile the canonical form: ajv reports problems in key order, which must not be the input's
  const canonical = JSON.parse(canonicalSchemaJson(schema)) as JsonObject;
  const compiled = compiler.compile(canonical);
  if (!compiled.ok) {
    // A pattern whose matching time cannot be bounded is a safety refusal, not a broken schema.
    const unbounded = compiled.unboundedPattern;
    return unbounded
      ? {
          code: 'UNSAFE_SCHEMA',
          reason: `${field}${unbounded.pointer}: ${unbounded.message}`,
          pointer: `/${field}${unbounded.pointer}`,
        }
      : { code: 'INVALID_SCHEMA', reason: `${field}: ${compiled.reason}`, pointer: `/${field}` };
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
  return undefined;
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
