/**
 * Tool schemas written with a schema library instead of as JSON Schema: any schema that
 * implements the Standard JSON Schema interface (`~standard.jsonSchema`, which zod 4.2+, valibot
 * and ArkType schemas carry) is turned into the JSON Schema (draft 2020-12) the endpoint serves,
 * before the tools are checked. The endpoint depends on no schema library: it only calls that
 * interface.
 * @module
 */
import type { StandardJsonSchema } from './standard-json-schema.js';
import type { JsonSchemaObject, NativeTool } from './tool-definition.js';

/** The dialect asked of a schema library: the one the endpoint's validator and contracts use. */
const TARGET = 'draft-2020-12';

/** Whether `schema` carries the Standard JSON Schema interface. */
export function _isStandardJsonSchema(schema: unknown): schema is StandardJsonSchema {
  const standard = (
    schema as { '~standard'?: { jsonSchema?: { input?: unknown; output?: unknown } } } | null
  )?.['~standard'];
  return (
    typeof standard?.jsonSchema?.input === 'function' && typeof standard.jsonSchema.output === 'function'
  );
}

/**
 * `tools` with every Standard JSON Schema replaced by its JSON Schema: the input side for
 * `inputSchema` (what a caller sends), the output side for `outputSchema` (what the handler
 * returns). A library that cannot express a schema throws; that is reported per tool in
 * `problems`, and the tool is passed on unchanged so the checks that follow name it too.
 */
export function _withJsonSchemas(tools: readonly NativeTool[]): { tools: NativeTool[]; problems: string[] } {
  if (!Array.isArray(tools)) return { tools: tools as NativeTool[], problems: [] };
  const problems: string[] = [];
  const converted = tools.map((tool, at) => {
    const label = typeof tool?.name === 'string' ? `tool "${tool.name}"` : `tools[${at}]`;
    const convert = (field: 'inputSchema' | 'outputSchema', side: 'input' | 'output') => {
      const schema: unknown = tool?.[field];
      if (!_isStandardJsonSchema(schema)) return schema as JsonSchemaObject | undefined;
      try {
        return _withoutDialect(schema['~standard'].jsonSchema[side]({ target: TARGET }));
      } catch (error) {
        problems.push(
          `${label}: ${field}: its schema library cannot express it as JSON Schema (${(error as Error).message})`,
        );
        return schema as unknown as JsonSchemaObject;
      }
    };
    if (!_isStandardJsonSchema(tool?.inputSchema) && !_isStandardJsonSchema(tool?.outputSchema)) return tool;
    const outputSchema = convert('outputSchema', 'output');
    return {
      ...tool,
      inputSchema: convert('inputSchema', 'input') as JsonSchemaObject,
      ...(outputSchema !== undefined && { outputSchema }),
    };
  });
  return { tools: converted, problems };
}

/** The schema without its `$schema` member: the contract names no dialect of its own. */
function _withoutDialect(schema: Record<string, unknown>): JsonSchemaObject {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
