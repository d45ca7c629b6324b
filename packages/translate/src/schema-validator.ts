/**
 * Compiling schemas with ajv by their own dialect (docs/design.md §13): no `$schema` or 2020-12 →
 * `Ajv2020`; 2019-09 → `Ajv2019`; draft-07 and draft-06 → `Ajv` (draft-06 meta-schema added);
 * draft-04 → `ajv-draft-04`. Formats come from `ajv-formats`. Real servers use formats no
 * standard defines (`int32`, `json`, …): ajv runs with `strict: false`, so an unknown format or
 * keyword is ignored by validation instead of failing the compile, and {@link unknownFormats}
 * lists them so the caller can warn. ajv still checks each schema against its meta-schema.
 * `pattern` and `patternProperties` run on a linear-time engine ({@link linearRegExp}); a schema
 * with a pattern that has no linear-time evaluation does not compile (docs/security.md).
 * @module
 */

import { AJV_FORMATS } from '@xprotocol/gbnf';
import { type SchemaDialect, schemaDialect } from '@xprotocol/json-schema-vocabulary';
import { Ajv, type AnySchema, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import draft06 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import AjvDraft04Module from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import { _preview } from './_json-util.js';
import { _forEachSubschema } from './_schema-walk.js';
import { isJsonObject, type JsonSchema, type JsonValue } from './json.js';
import { linearRegExp, UnboundedPatternError } from './linear-regexp.js';

type AjvLike = InstanceType<typeof Ajv> | InstanceType<typeof Ajv2019> | InstanceType<typeof Ajv2020>;

// ajv-draft-04 and ajv-formats are CommonJS with `exports.default`; take whichever the loader gives
const AjvDraft04 = ((AjvDraft04Module as unknown as { default?: unknown }).default ??
  AjvDraft04Module) as unknown as new (
  options: object,
) => AjvLike;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: AjvLike) => void;

/** The format names ajv-formats validates; any other `format` value is not checked (one list, from gbnf). */
export const KNOWN_FORMATS: readonly string[] = Object.freeze([...AJV_FORMATS]);

// ajv's RegExpEngine: `code` names it in standalone code, which is never generated here.
const _regExp = Object.assign((pattern: string, flags: string) => linearRegExp(pattern, flags), {
  code: 'linearRegExp',
});

const OPTIONS = {
  code: { regExp: _regExp },
  strict: false,
  allErrors: true,
  validateFormats: true,
  addUsedSchema: false,
  logger: false,
} as const;

/**
 * Outcome of compiling a schema. `unicodeRegExp` is false when a `pattern` is valid only as a
 * non-Unicode ECMAScript regular expression (e.g. `\_`, an identity escape the `u` flag forbids):
 * such a schema is compiled without the `u` flag, as JavaScript validators of the MCP SDKs do.
 */
export type CompileResult =
  | { ok: true; dialect: SchemaDialect; unicodeRegExp: boolean; validate: SchemaValidateFunction }
  | { ok: false; reason: string; unboundedPattern?: UnboundedPattern };

/** A pattern refused because its matching time cannot be bounded, and where it is in the schema. */
export interface UnboundedPattern {
  pattern: string;
  /** JSON pointer from the compiled schema's root. */
  pointer: string;
  /** Why, without the pointer. */
  message: string;
}

/** A compiled validator: true when `data` conforms; `errors` lists what failed otherwise. */
export interface SchemaValidateFunction {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null | undefined;
}

/**
 * Compiles schemas, one ajv instance per dialect, created on first use. Keep one per process (or
 * per source) and reuse it: creating an instance compiles the meta-schemas.
 */
export class SchemaCompiler {
  readonly #instances = new Map<string, AjvLike>();

  /**
   * Compiles `schema` by its dialect. Refuses an unknown `$schema` and any schema ajv rejects
   * (meta-schema violation, bad regex, unresolvable reference), saying why.
   * @example
   * const compiler = new SchemaCompiler();
   * const r = compiler.compile({ type: 'object', required: ['path'] });
   * if (r.ok) r.validate({ path: 'a' }); // true
   */
  compile(schema: JsonSchema): CompileResult {
    const dialect = schemaDialect(schema);
    if (dialect === undefined) {
      const uri = isJsonObject(schema) ? schema.$schema : undefined;
      return {
        ok: false,
        reason: `$schema ${_preview(uri)} is not a supported dialect (draft-04, draft-06, draft-07, 2019-09, 2020-12)`,
      };
    }
    const first = this.#try(schema, dialect, true);
    if (first.ok || !/Invalid regular expression/.test(first.reason)) return first;
    const second = this.#try(schema, dialect, false);
    return second.ok ? second : first;
  }

  #try(schema: JsonSchema, dialect: SchemaDialect, unicodeRegExp: boolean): CompileResult {
    const ajv = this.#instance(dialect, unicodeRegExp);
    try {
      const validate = ajv.compile(schema as AnySchema) as ValidateFunction;
      return { ok: true, dialect, unicodeRegExp, validate };
    } catch (error) {
      if (error instanceof UnboundedPatternError) {
        const pointer = _patternPointer(schema, error.pattern) ?? '';
        return {
          ok: false,
          reason: `${pointer === '' ? '' : `${pointer}: `}${error.message}`,
          unboundedPattern: { pattern: error.pattern, pointer, message: error.message },
        };
      }
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, reason: `schema does not compile as JSON Schema ${dialect}: ${message}` };
    } finally {
      ajv.removeSchema(schema as AnySchema);
    }
  }

  #instance(dialect: SchemaDialect, unicodeRegExp: boolean): AjvLike {
    const key = `${dialect}/${unicodeRegExp}`;
    let ajv = this.#instances.get(key);
    if (ajv !== undefined) return ajv;
    const options = { ...OPTIONS, unicodeRegExp };
    switch (dialect) {
      case '2020-12':
        ajv = new Ajv2020(options);
        break;
      case '2019-09':
        ajv = new Ajv2019(options);
        break;
      case 'draft-07':
        ajv = new Ajv(options);
        break;
      case 'draft-06':
        ajv = new Ajv(options);
        ajv.addMetaSchema(draft06);
        break;
      case 'draft-04':
        ajv = new AjvDraft04(options);
        break;
    }
    addFormats(ajv);
    this.#instances.set(key, ajv);
    return ajv;
  }
}

/** Formats used in `schema` that ajv-formats does not know (so they are not validated), sorted. */
export function unknownFormats(schema: JsonSchema): string[] {
  const found = new Set<string>();
  const visit = (node: JsonSchema, at: string): void => {
    if (!isJsonObject(node)) return;
    const format = node.format as JsonValue | undefined;
    if (typeof format === 'string' && !KNOWN_FORMATS.includes(format)) found.add(format);
    _forEachSubschema(node, at, (sub) => visit(sub.schema, sub.pointer));
  };
  visit(schema, '');
  return [...found].sort();
}

/** The JSON pointer of the first `pattern` or `patternProperties` key equal to `pattern`. */
function _patternPointer(schema: JsonSchema, pattern: string): string | undefined {
  let found: string | undefined;
  const visit = (node: JsonSchema, at: string): void => {
    if (found !== undefined || !isJsonObject(node)) return;
    if (node.pattern === pattern) {
      found = `${at}/pattern`;
      return;
    }
    const props = node.patternProperties;
    if (isJsonObject(props) && Object.hasOwn(props, pattern)) {
      found = `${at}/patternProperties/${pattern.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      return;
    }
    _forEachSubschema(node, at, (sub) => visit(sub.schema, sub.pointer));
  };
  visit(schema, '');
  return found;
}
