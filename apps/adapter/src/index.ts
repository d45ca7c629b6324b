/**
 * `@xprotocol/mcp-adapter` — the adapter's programmatic API beside its `xprotocol-adapter` bin:
 * load a configuration, start the adapter in-process, make one call to an endpoint, and the
 * command-line conventions both apps share (the devserver builds on all of these).
 * @module
 */
export {
  CliError,
  type CliIo,
  cliProgram,
  EXIT,
  HELP_HINT,
  listenForStop,
  processIo,
  runBin,
  runProgram,
  type StopSignal,
  selfCommand,
  usageError,
} from './cli/cli-shape.js';
export { runCli } from './cli/program.js';
export * from './config/index.js';
export { announcePayload } from './runtime/announce-payload.js';
export {
  type CallEndpointOptions,
  type CallEndpointResult,
  type CallFailure,
  callEndpoint,
} from './runtime/call-endpoint.js';
export { type AdapterLogger, createLogger } from './runtime/logger.js';
export { McpSources, type SourceStatus } from './runtime/mcp-sources.js';
export { type RunningAdapter, type StartAdapterOptions, startAdapter } from './runtime/start-adapter.js';
export { ADAPTER_VERSION } from './version.js';
