/**
 * The JSON Schema validator the upstream MCP client uses for tools' `outputSchema`: the adapter's
 * own {@link SchemaCompiler} (each schema by its dialect, `pattern` on the linear-time engine),
 * instead of the SDK's default, which runs patterns on JavaScript's backtracking engine. An
 * upstream result checked against `^(a+)+$` would otherwise stall the event loop exactly like
 * arguments would (docs/security.md, "Regular expressions").
 * @module
 */
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { type JsonSchema, SchemaCompiler } from '@xprotocol/translate';

/** Most ajv errors quoted in one message. */
const _MAX_ERRORS = 5;

/** A `jsonSchemaValidator` (the SDK's validator provider) backed by {@link SchemaCompiler}. */
export class _LinearSchemaValidator implements jsonSchemaValidator {
  readonly #compiler = new SchemaCompiler();

  getValidator<T>(schema: unknown): JsonSchemaValidator<T> {
    const compiled = this.#compiler.compile(schema as JsonSchema);
    if (!compiled.ok) {
      // The SDK turns a throw here into "the tool has an invalid outputSchema" for that tool only.
      throw new Error(compiled.reason);
    }
    const { validate } = compiled;
    return (input) => {
      if (validate(input)) return { valid: true, data: input as T, errorMessage: undefined };
      const errors = (validate.errors ?? [])
        .slice(0, _MAX_ERRORS)
        .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
      return {
        valid: false,
        data: undefined,
        errorMessage: errors.join('; ') || 'does not match the schema',
      };
    };
  }
}
