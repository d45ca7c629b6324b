/**
 * The error the JSON Schema compiler throws when a schema cannot be compiled soundly.
 * @module
 */
import { GbnfError } from '../errors.js';

/** Why a schema could not be compiled; stable, for grouping failures. */
export type GbnfCompileReason =
  | 'INVALID_SCHEMA'
  | 'UNRESOLVED_REF'
  | 'REMOTE_REF'
  | 'UNSUPPORTED_KEYWORD'
  | 'UNSUPPORTED_PATTERN'
  | 'UNSUPPORTED_FORMAT'
  | 'OVERLAPPING_ONEOF'
  | 'NOT_NEGATABLE'
  | 'UNSATISFIABLE'
  | 'TOO_LARGE';

/**
 * A JSON Schema the compiler cannot turn into a sound grammar. `pointer` is the JSON pointer
 * (RFC 6901, `#`-prefixed URI fragment form) of the offending keyword in the input schema.
 */
export class GbnfCompileError extends GbnfError {
  readonly pointer: string;
  readonly reason: GbnfCompileReason;

  constructor(reason: GbnfCompileReason, pointer: string, message: string, options?: { cause?: unknown }) {
    super('COMPILE', `${pointer}: ${message}`, options);
    this.name = 'GbnfCompileError';
    this.pointer = pointer;
    this.reason = reason;
  }
}
