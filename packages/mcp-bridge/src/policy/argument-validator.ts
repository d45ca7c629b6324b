/**
 * Argument validation for calls (the last check before the upstream call, and the first on the
 * MCP face): the tool's input schema compiled by its own JSON Schema dialect, with errors that say
 * where and what.
 * @module
 */
import { type JsonSchema, SchemaCompiler } from '@xprotocol/translate';

/** The verdict of validating call arguments against a tool's input schema. */
export type ArgumentCheck =
  | { ok: true }
  | { ok: false; message: string; errors: { path: string; message: string }[] };

/** Most errors reported for one call. */
const MAX_ERRORS = 20;

interface AjvErrorLike {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * Compiles `schema` into a validator. A schema that does not compile yields a validator that
 * refuses every call with the reason (a tool whose schema cannot be checked is never called with
 * unchecked arguments).
 */
export function compileArgumentValidator(
  schema: JsonSchema,
  compiler: SchemaCompiler = new SchemaCompiler(),
): (payload: unknown) => ArgumentCheck {
  const compiled = compiler.compile(schema);
  if (!compiled.ok) {
    const message = `the tool's input schema cannot be checked: ${compiled.reason}`;
    return () => ({ ok: false, message, errors: [{ path: '', message }] });
  }
  const { validate } = compiled;
  return (payload) => {
    if (validate(payload)) return { ok: true };
    const raw = ((validate as unknown as { errors?: AjvErrorLike[] | null }).errors ?? []).slice(
      0,
      MAX_ERRORS,
    );
    const errors = raw.map((error) => ({
      path: error.instancePath || '/',
      message: _describe(error),
    }));
    const first = errors[0];
    return {
      ok: false,
      message: first ? `${first.path}: ${first.message}` : 'the arguments do not match the input schema',
      errors,
    };
  };
}

function _describe(error: AjvErrorLike): string {
  const params = error.params ?? {};
  if (typeof params.additionalProperty === 'string')
    return `unexpected property "${params.additionalProperty}"`;
  if (typeof params.missingProperty === 'string')
    return `missing required property "${params.missingProperty}"`;
  if (Array.isArray(params.allowedValues))
    return `${error.message}: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return error.message ?? 'invalid';
}
