/**
 * The part of the Standard JSON Schema interface the endpoint uses (`~standard.jsonSchema`, which
 * zod 4.2+, valibot and ArkType schemas carry): a type only, so that the tool definition and the
 * conversion (standard-schema.ts) can both name it.
 * @module
 */

/** A schema of a library that can give its JSON Schema. */
export interface StandardJsonSchema {
  readonly '~standard': {
    readonly jsonSchema: {
      /** The JSON Schema of what the schema accepts. */
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
      /** The JSON Schema of what the schema produces. */
      readonly output: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}
