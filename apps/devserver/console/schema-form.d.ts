// Types of the console's browser module schema-form.js, for the tests that run it in Node.

/**
 * The problems of `value` against `schema`, as `path: message` strings (empty when it passes),
 * plus the keywords this check skipped (the adapter checks the full schema).
 */
export function validate(schema: unknown, value: unknown): { errors: string[]; skipped: string[] };

/** Fills `fieldset` with one input per property of `schema` (in the browser). */
export function buildForm(fieldset: unknown, schema: unknown): unknown;
