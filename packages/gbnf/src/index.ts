/**
 * `@xprotocol/gbnf` — JSON Schema → GBNF compiler and a GBNF toolkit (issue #3).
 * @module
 */
export { GbnfError, type GbnfErrorCode } from './errors.js';
