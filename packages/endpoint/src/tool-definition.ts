/**
 * What a native tool is (a name, a description, JSON Schemas and an async handler) and the checks
 * a list of them passes before anything is served: a name that is not unique, a schema that does
 * not compile, or a tool the translation refuses stops the start with an error naming the tool.
 * @module
 */
import { type JsonSchema, SchemaCompiler } from '@xprotocol/translate';
import type { StandardJsonSchema } from './standard-json-schema.js';

/** A JSON Schema, as a plain JSON object. */
export type JsonSchemaObject = Record<string, unknown>;

/** What a handler learns about the call it runs. */
export interface ToolCallContext {
  /** Aborted when the call's time is up (the caller's expiration or `callTimeoutMs`). */
  signal: AbortSignal;
}

/** One tool of a native endpoint. */
export interface NativeTool {
  /** The tool's name: letters, digits, `_` and `-`; its kind is `<namespace>.<name>`. */
  name: string;
  /** What the tool does, for people and models; it is scored like any MCP tool's description. */
  description: string;
  /**
   * JSON Schema of the arguments (an object schema); every call is checked against it first. A
   * schema of a library that implements Standard JSON Schema (a zod 4.2+ `z.object(…)`, say) is
   * served as the JSON Schema it gives for its input.
   */
  inputSchema: JsonSchemaObject | StandardJsonSchema;
  /**
   * JSON Schema of the result: when given, a result that breaks it is refused, never sent. A
   * Standard JSON Schema is served as the JSON Schema of its output.
   */
  outputSchema?: JsonSchemaObject | StandardJsonSchema | undefined;
  /** MCP tool annotations (`readOnlyHint`, `destructiveHint` …), which shape the inferred capability. */
  annotations?: Record<string, unknown> | undefined;
  /**
   * Runs a call whose arguments passed the schema. Its value is the result: a JSON object, or any
   * JSON value, which is then sent as text. What it throws is answered as `UPSTREAM_ERROR` with the
   * error's message (the process keeps serving).
   */
  handler: (args: Record<string, unknown>, context: ToolCallContext) => unknown;
}

/** A tool list that cannot be served: `problems` says, per tool, what is wrong and what was expected. */
export class ToolDefinitionError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`cannot serve these tools: ${problems.join('; ')}`);
    this.name = 'ToolDefinitionError';
    this.problems = problems;
  }
}

/**
 * What is wrong with `tools` before translation (an empty list means nothing): not a list, a
 * missing handler, a name used twice, a schema that is not an object or does not compile.
 */
export function toolDefinitionProblems(tools: unknown, compiler = new SchemaCompiler()): string[] {
  if (!Array.isArray(tools) || tools.length === 0)
    return ['tools: expected a non-empty array of { name, description, inputSchema, handler }'];
  const problems: string[] = [];
  const seen = new Set<string>();
  tools.forEach((tool: Partial<NativeTool>, at) => {
    const label = typeof tool?.name === 'string' ? `tool "${tool.name}"` : `tools[${at}]`;
    if (typeof tool?.name !== 'string' || tool.name.length === 0) {
      problems.push(`${label}: name: expected a non-empty string`);
    } else if (seen.has(tool.name)) {
      problems.push(`${label}: the name is used by an earlier tool; expected unique names`);
    } else seen.add(tool.name);
    if (typeof tool?.description !== 'string')
      problems.push(`${label}: description: expected a string saying what the tool does`);
    if (typeof tool?.handler !== 'function')
      problems.push(`${label}: handler: expected an async function (args, context) => result`);
    problems.push(...schemaProblems(label, 'inputSchema', tool?.inputSchema, compiler, true));
    if (tool?.outputSchema !== undefined)
      problems.push(...schemaProblems(label, 'outputSchema', tool.outputSchema, compiler, false));
  });
  return problems;
}

/** What is wrong with one schema: not an object, (input) not of type object, or does not compile. */
function schemaProblems(
  label: string,
  field: string,
  schema: unknown,
  compiler: SchemaCompiler,
  required: boolean,
): string[] {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
    return [`${label}: ${field}: expected a JSON Schema object${required ? '' : ' or nothing'}`];
  if (required && (schema as { type?: unknown }).type !== 'object')
    return [`${label}: ${field}: expected a schema with "type": "object" (a tool takes named arguments)`];
  const compiled = compiler.compile(schema as JsonSchema);
  return compiled.ok ? [] : [`${label}: ${field}: not a valid JSON Schema: ${compiled.reason}`];
}
