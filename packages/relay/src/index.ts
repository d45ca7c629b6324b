/**
 * `@xprotocol/relay` — a real XProtocol relay (issue #2 slice 4).
 * @module
 */
export {};
