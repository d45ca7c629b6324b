// Configuration files of the two adapter roles the end-to-end tests start again and again: an
// endpoint that wraps one MCP server and grants one caller key, and an MCP face whose tools come
// from XProtocol endpoints; and the source most of them wrap, the conformance fixture over stdio.
// One writer each, so a test says only what differs.
import { CONFORMANCE_FIXTURE } from './processes.js';

/** The YAML of one `mcp_sources` entry's body (transport, command or url, env…), each line indented four spaces. */
export type SourceBody = string;

/**
 * The body of an `mcp_sources` entry that runs the conformance fixture over stdio (`transport` and
 * `command`, indented four spaces); a test adds its own lines after it (`env:`, `mcp_revision:`…).
 */
export function conformanceStdioBody(): SourceBody {
  return `    transport: stdio
    command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(CONFORMANCE_FIXTURE)}, "stdio"]`;
}

/** Options of {@link wrapperConfig}. */
export interface WrapperConfig {
  /** The key file, relative to the test folder (`./b.key`). */
  keyFile: string;
  relayUrl: string;
  /** The wrapped server: its source name, its body lines and its XProtocol namespace. */
  source: { name: string; body: SourceBody; namespace: string };
  /** Extra YAML lines of the source entry (indented four spaces), e.g. a rate limit. */
  sourceExtra?: string;
  /** The caller key granted every capability of the namespace (`<namespace>.*`). */
  grantTo: string;
  stateDatabase: string;
  /** The log level (default `warn`); the logs are JSON lines. */
  logLevel?: 'debug' | 'info' | 'warn';
}

/** An adapter that wraps one MCP server as an XProtocol endpoint and grants one caller. */
export function wrapperConfig(o: WrapperConfig): string {
  return `identity:
  key_file: ${o.keyFile}
relay:
  urls: [${o.relayUrl}]
mcp_sources:
  - name: ${o.source.name}
${o.source.body}
    xprotocol_namespace: ${o.source.namespace}
${o.sourceExtra ? `${o.sourceExtra}\n` : ''}access:
  grants:
    - key: ${o.grantTo}
      capabilities: [${o.source.namespace}.*]
state_database: ${o.stateDatabase}
logging:
  level: ${o.logLevel ?? 'warn'}
  format: json
`;
}

/** Options of {@link faceConfig}. */
export interface FaceConfig {
  keyFile: string;
  relayUrl: string;
  /** The XProtocol endpoints behind the face, each reached on `relayUrl`. */
  sources: { name: string; key: string }[];
  /** The face's Streamable HTTP port. */
  port: number;
  stateDatabase: string;
}

/** An adapter whose MCP face (Streamable HTTP) serves the tools of XProtocol endpoints. */
export function faceConfig(o: FaceConfig): string {
  const sources = o.sources
    .map((s) => `  - name: ${s.name}\n    key: ${s.key}\n    relay: ${o.relayUrl}\n`)
    .join('');
  return `identity:
  key_file: ${o.keyFile}
relay:
  urls: [${o.relayUrl}]
xprotocol_sources:
${sources}mcp_server:
  transport: streamable_http
  port: ${o.port}
state_database: ${o.stateDatabase}
logging:
  level: warn
  format: json
`;
}

/** Options of {@link gatewayConfig}. */
export interface GatewayConfig {
  keyFile: string;
  relayUrl: string;
  /** The upstreams, each `name`, its body lines (transport, command or url, extras) and namespace. */
  sources: { name: string; body: SourceBody; namespace: string }[];
  /** `port` for a Streamable HTTP face; `stdio` for a stdio face (its log then goes to `logFile`). */
  face: { port: number } | { stdio: true; logFile: string };
  /** Extra YAML lines of `mcp_server` (indented two spaces), e.g. an `oauth` section. */
  serverExtra?: string;
  stateDatabase: string;
}

/** An adapter in gateway mode: its MCP face forwards to `sources` as they are (`expose: [mcp_sources]`). */
export function gatewayConfig(o: GatewayConfig): string {
  const sources = o.sources
    .map((s) => `  - name: ${s.name}\n${s.body}\n    xprotocol_namespace: ${s.namespace}\n`)
    .join('');
  const face =
    'port' in o.face ? `  transport: streamable_http\n  port: ${o.face.port}` : '  transport: stdio';
  const output = 'logFile' in o.face ? `\n  output: ${o.face.logFile}` : '';
  return `identity:
  key_file: ${o.keyFile}
relay:
  urls: [${o.relayUrl}]
mcp_sources:
${sources}access:
  grants: []
mcp_server:
${face}
  expose: [mcp_sources]
${o.serverExtra ? `${o.serverExtra}\n` : ''}state_database: ${o.stateDatabase}
logging:
  level: warn
  format: json${output}
`;
}
