/**
 * Options of {@link compileSchema} and their defaults.
 * @module
 */

/** What to do with a `format` the compiler does not know. */
export type UnknownFormatPolicy = 'ignore' | 'error';

/** Options of `compileSchema`. Every field is optional; see {@link DEFAULT_COMPILE_OPTIONS}. */
export interface CompileOptions {
  /**
   * Most JSON whitespace characters accepted between two tokens (and before/after the document).
   * Default 64: enough for a two-space indented document nested 30 levels deep.
   */
  readonly maxWhitespace?: number;
  /**
   * Allow the compiler to accept a superset of the schema where it cannot be exact (e.g. drop
   * `uniqueItems`). Every widening is reported in `warnings`. Default `false`: narrow instead.
   */
  readonly allowWidening?: boolean;
  /**
   * A `format` that is not one of ajv-formats' formats: `'ignore'` (default — ajv in non-strict
   * mode ignores unknown formats, so ignoring them is sound for the adapter's validator; a warning
   * names each one) or `'error'` (throw {@link GbnfCompileError}).
   */
  readonly unknownFormats?: UnknownFormatPolicy;
  /**
   * Largest repetition count written as an exact `{m,n}` bound (string lengths, item counts).
   * Bounds above it are narrowed to it and reported. Default 100,000. (Counts above llama.cpp's
   * limit of 2,000 are written as exact nested repetitions.)
   */
  readonly maxRepetition?: number;
  /** Upper bound on the number of grammar rules; a larger grammar is a compile error. Default 20,000. */
  readonly maxRules?: number;
}

/** The resolved options. */
export interface ResolvedCompileOptions {
  readonly maxWhitespace: number;
  readonly allowWidening: boolean;
  readonly unknownFormats: UnknownFormatPolicy;
  readonly maxRepetition: number;
  readonly maxRules: number;
}

/** Defaults used for every option not given. */
export const DEFAULT_COMPILE_OPTIONS: ResolvedCompileOptions = Object.freeze({
  maxWhitespace: 64,
  allowWidening: false,
  unknownFormats: 'ignore',
  maxRepetition: 100_000,
  maxRules: 20_000,
});

/** @internal Merges user options with the defaults and checks them. */
export function _resolveOptions(options: CompileOptions | undefined): ResolvedCompileOptions {
  const o = { ...DEFAULT_COMPILE_OPTIONS, ...(options ?? {}) };
  for (const key of ['maxWhitespace', 'maxRepetition', 'maxRules'] as const) {
    const v = o[key];
    if (!Number.isSafeInteger(v) || v < 0) {
      throw new TypeError(`compileSchema options.${key}: expected a non-negative integer, got ${String(v)}`);
    }
  }
  if (o.unknownFormats !== 'ignore' && o.unknownFormats !== 'error') {
    throw new TypeError(
      `compileSchema options.unknownFormats: expected "ignore" | "error", got ${JSON.stringify(o.unknownFormats)}`,
    );
  }
  return o;
}
