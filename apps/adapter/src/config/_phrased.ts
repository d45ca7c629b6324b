/**
 * The "expected …" phrase of each leaf schema of the configuration, registered where the schema
 * is made and read by the error map (validate-shape.ts), so a message says what was expected.
 * @module
 */
import { z } from 'zod';

// Keyed by the schema definition: `.describe()` and `.meta()` clone a schema but keep its definition.
const EXPECTED = new WeakMap<object, string>();

/** Registers the "expected …" phrase of a schema (used by the error map of `load.ts`). */
export function phrased<T extends z.ZodType>(schema: T, phrase: string): T {
  EXPECTED.set(schema._zod.def, phrase);
  return schema;
}

/** The "expected …" phrase registered for a schema, if any. */
export function _expectedPhrase(schema: unknown): string | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  return EXPECTED.get(schema._zod.def);
}
