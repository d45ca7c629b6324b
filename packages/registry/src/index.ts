/**
 * `@xprotocol/registry` — The live XProtocol catalog: kind and tool maps, persisted schema versions, announce payloads and catalog pages.
 * @module
 */
export {};
