/**
 * The adapter configurations the suites start. Rate limits are raised: the defaults (600 calls a
 * minute per source) would throttle a benchmark. Logs at `warn`, JSON, on stderr.
 * @module
 */

/** A source entry's `rate_limit` block that never throttles a bench. */
const UNLIMITED = `    rate_limit:
      requests_per_minute: 1000000`;

/** The YAML of an `mcp_sources` entry. */
export interface SourceYaml {
  readonly name: string;
  readonly namespace: string;
  /** `stdio`: the command; `streamable_http`: the URL. */
  readonly stdio?: { readonly command: readonly string[]; readonly env?: Record<string, string> };
  readonly url?: string;
}

function _source(source: SourceYaml): string {
  const lines = [`  - name: ${source.name}`];
  if (source.stdio) {
    lines.push('    transport: stdio', `    command: ${JSON.stringify(source.stdio.command)}`);
    const env = Object.entries(source.stdio.env ?? {});
    if (env.length > 0) {
      lines.push('    env:', ...env.map(([key, value]) => `      ${key}: ${JSON.stringify(value)}`));
    }
  } else {
    lines.push('    transport: streamable_http', `    url: ${source.url}`);
  }
  lines.push(`    xprotocol_namespace: ${source.namespace}`, UNLIMITED);
  return lines.join('\n');
}

/** An adapter whose MCP face (Streamable HTTP on `port`) aggregates `sources`: a plain MCP gateway. */
export function gatewayYaml(options: {
  keyFile: string;
  relayUrl: string;
  port: number;
  sources: readonly SourceYaml[];
  grants?: readonly { key: string; capabilities: readonly string[] }[];
  stateDatabase: string;
}): string {
  const grants = options.grants ?? [];
  return `identity:
  key_file: ${options.keyFile}
relay:
  urls: [${options.relayUrl}]
mcp_sources:
${options.sources.map(_source).join('\n')}
access:
  grants:${grants.length === 0 ? ' []' : ''}
${grants.map((g) => `    - key: ${g.key}\n      capabilities: ${JSON.stringify(g.capabilities)}`).join('\n')}
mcp_server:
  transport: streamable_http
  port: ${options.port}
  expose: [mcp_sources]
state_database: ${options.stateDatabase}
logging:
  level: warn
  format: json
`;
}

/** An adapter that wraps `sources` for XProtocol callers (no MCP face), granting `grants`. */
export function endpointYaml(options: {
  keyFile: string;
  relayUrl: string;
  sources: readonly SourceYaml[];
  grants: readonly { key: string; capabilities: readonly string[] }[];
  stateDatabase: string;
  /** An OTLP/HTTP traces URL: the adapter traces its calls (docs/operating.md, "Traces"). */
  tracing?: string;
}): string {
  return `identity:
  key_file: ${options.keyFile}
relay:
  urls: [${options.relayUrl}]
mcp_sources:
${options.sources.map(_source).join('\n')}
access:
  grants:
${options.grants.map((g) => `    - key: ${g.key}\n      capabilities: ${JSON.stringify(g.capabilities)}`).join('\n')}
${_tracing(options.tracing)}state_database: ${options.stateDatabase}
logging:
  level: warn
  format: json
`;
}

/** An adapter whose MCP face (Streamable HTTP on `port`) serves the tools of XProtocol endpoint `endpointKey`. */
export function xpClientYaml(options: {
  keyFile: string;
  relayUrl: string;
  port: number;
  endpointKey: string;
  stateDatabase: string;
  /** An OTLP/HTTP traces URL: the adapter traces its calls. */
  tracing?: string;
}): string {
  return `identity:
  key_file: ${options.keyFile}
relay:
  urls: [${options.relayUrl}]
xprotocol_sources:
  - name: b
    key: ${options.endpointKey}
    relay: ${options.relayUrl}
mcp_server:
  transport: streamable_http
  port: ${options.port}
${_tracing(options.tracing)}state_database: ${options.stateDatabase}
logging:
  level: warn
  format: json
`;
}

/** The `tracing` block sending spans to `url`; nothing without one. */
function _tracing(url: string | undefined): string {
  return url === undefined ? '' : `tracing:\n  endpoint: ${url}\n`;
}
