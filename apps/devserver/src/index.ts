/**
 * `@xprotocol/devserver` — the XProtocol dev bundle beside its `xprotocol-devserver` bin: a local
 * relay with a SQLite event store, the adapter (built on `@xprotocol/mcp-adapter`'s programmatic
 * API) pointed at it, a pretty event log, hot reload, the `--demo` round trip and the
 * `--mcp-proxy` MCP face, and the web console of the serving modes. Dev only: not for production
 * (docs/design.md §14).
 * @module
 */
export type { AdapterLogRecord, LogLevel } from './adapter-log-tap.js';
export { type BannerInfo, formatBanner, mcpClientSnippet } from './banner.js';
export { runDevserverCli } from './cli.js';
export type { DevserverCliContext } from './cli-context.js';
export { type ConfigWatchOptions, watchConfigFile } from './config-watch.js';
export {
  DEMO_KIND,
  DEMO_NAMESPACE,
  DEMO_TEXT,
  DemoError,
  type DemoOptions,
  type DemoResult,
  filesystemServerEntry,
  runDemo,
} from './demo.js';
export {
  type EventLogEntry,
  formatBytes,
  formatEventLine,
  formatRefusalLine,
  ObservedEventStore,
  shortKey,
  watchRefusalCount,
} from './event-log.js';
export { type InlineConfigOptions, inlineConfig } from './inline-config.js';
export { ensureProxyKey, type McpProxyOptions, startMcpProxy } from './mcp-proxy.js';
export {
  DEFAULT_RELAY_PORT,
  type DevServerPaths,
  devServerPaths,
  localRelayUrl,
  RELAY_HOST,
  readRunningRelay,
} from './paths.js';
export { type DevServer, type DevServerOptions, startDevServer } from './start-dev-server.js';
export { createStyle, type Style } from './style.js';
export { DEVSERVER_VERSION } from './version.js';
