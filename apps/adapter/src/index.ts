/**
 * `@xprotocol/mcp-adapter` — the adapter's programmatic API beside its `xprotocol-adapter` bin:
 * load a configuration and start the adapter in-process (the devserver builds on this).
 * @module
 */
export { runCli } from './cli/program.js';
export * from './config/index.js';
export { announcePayload } from './runtime/announce-payload.js';
export { type AdapterLogger, createLogger } from './runtime/logger.js';
export { McpSources, type SourceStatus } from './runtime/mcp-sources.js';
export { type RunningAdapter, type StartAdapterOptions, startAdapter } from './runtime/start-adapter.js';
export { ADAPTER_VERSION } from './version.js';
