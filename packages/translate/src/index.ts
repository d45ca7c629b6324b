/**
 * `@xprotocol/translate` — Deterministic MCP tool <-> XProtocol schema contract translation, capability inference, error maps and schema safety.
 * @module
 */
export {};
