/**
 * `@xprotocol/semantic` — annotations, description quality, tool search (issue #4).
 * @module
 */
export {};
