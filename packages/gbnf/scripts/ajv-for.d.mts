import type { Ajv } from 'ajv';
/** A JSON Schema dialect this module builds a validator for. */
export type Dialect = 'draft-04' | 'draft-07' | '2019-09' | '2020-12';
/** The dialect a schema's `$schema` names (2020-12 when it names none). */
export declare function dialectOf(schema: unknown): Dialect;
/** A new ajv instance for `dialect`, with ajv-formats unless `formats` is false. */
export declare function newAjv(dialect: Dialect, options?: { formats?: boolean }): Ajv;
/** A validator for `schema` in its dialect, or `undefined` when ajv refuses the schema. */
export declare function ajvFor(schema: unknown): ((data: unknown) => boolean) | undefined;
