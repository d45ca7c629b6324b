/**
 * The configuration file `xprotocol-adapter gateway` runs (docs/cli.md, "gateway"): a pure MCP
 * gateway (config/mode.ts) over the upstreams of the command line, as YAML text. The command
 * prints this text with `--print-config` and otherwise loads it with the same loader as `start`,
 * so the one line and the file are one configuration, checked the same way.
 * @module
 */

/** The variable that holds the face's token when `--token-env` does not name one. */
export const DEFAULT_TOKEN_ENV = 'XP_GATEWAY_TOKEN';

/** One upstream MCP server: a stdio command (argv) or a Streamable HTTP URL. */
export type GatewayUpstream = { readonly argv: readonly string[] } | { readonly url: string };

/** What the command line gave. */
export interface GatewaySettings {
  readonly upstreams: readonly GatewayUpstream[];
  /** The face's port on 127.0.0.1. */
  readonly port: number;
  /** The variable holding the token clients must send. */
  readonly tokenEnv: string;
  /** Variables of this environment passed to every stdio upstream (`--env`). */
  readonly passEnv: readonly string[];
  /** `rate_limit.requests_per_minute` of every upstream. */
  readonly requestsPerMinute: number;
}

/**
 * The YAML of the gateway: the upstreams as `mcp_sources`, in the order given, each named after
 * its command or URL, and a Streamable HTTP face on 127.0.0.1 that requires the token in
 * `tokenEnv`. Strings are written as JSON (valid YAML) with `${` escaped, so no argument is
 * interpolated; `--env` variables are written as `${NAME}`, read when the file is loaded.
 * @example
 * gatewayYaml({ upstreams: [{ argv: ['npx', '-y', '@modelcontextprotocol/server-memory'] }],
 *   port: 8767, tokenEnv: 'XP_GATEWAY_TOKEN', passEnv: [], requestsPerMinute: 600 });
 * // …mcp_sources:\n  - name: server-memory\n    transport: stdio\n    command: ["npx", "-y", …
 */
export function gatewayYaml(settings: GatewaySettings): string {
  const names = _upstreamNames(settings.upstreams);
  const sources = settings.upstreams.flatMap((upstream, i) => {
    const name = names[i]!;
    const lines = [`  - name: ${name}`];
    if ('argv' in upstream) {
      lines.push('    transport: stdio', `    command: [${upstream.argv.map(_yamlString).join(', ')}]`);
      if (settings.passEnv.length > 0)
        lines.push('    env:', ...settings.passEnv.map((variable) => `      ${variable}: \${${variable}}`));
    } else {
      lines.push('    transport: streamable_http', `    url: ${_yamlString(upstream.url)}`);
    }
    lines.push(
      `    xprotocol_namespace: gateway.${name}`,
      '    rate_limit:',
      `      requests_per_minute: ${settings.requestsPerMinute}`,
    );
    return lines;
  });
  return [
    '# A pure MCP gateway (no relay, no identity), as `xprotocol-adapter gateway` runs it; see',
    '# docs/cli.md ("gateway") and docs/config.md ("A pure MCP gateway"). Run it with',
    `#   ${settings.tokenEnv}=<the token clients send> xprotocol-adapter start --config <this file>`,
    'mcp_sources:',
    ...sources,
    'mcp_server:',
    '  transport: streamable_http',
    '  host: 127.0.0.1',
    `  port: ${settings.port}`,
    '  auth:',
    `    token_env: ${settings.tokenEnv}`,
    '',
  ].join('\n');
}

/**
 * A source name per upstream, unique: a command's server (the first argument that is not an
 * option, else the program: `npx -y @scope/server-memory` → `server-memory`), a URL's host and
 * port (`127-0-0-1-3001`); letters, digits, `_` and `-` only, so it is a namespace segment too.
 */
function _upstreamNames(upstreams: readonly GatewayUpstream[]): string[] {
  const taken = new Map<string, number>();
  return upstreams.map((upstream) => {
    const base =
      _slug('argv' in upstream ? _serverWord(upstream.argv) : new URL(upstream.url).host) || 'upstream';
    const seen = (taken.get(base) ?? 0) + 1;
    taken.set(base, seen);
    return seen === 1 ? base : `${base}-${seen}`;
  });
}

/** The word that names a command's server: its last path segment, without a script extension. */
function _serverWord(argv: readonly string[]): string {
  const word = argv.slice(1).find((arg) => !arg.startsWith('-')) ?? argv[0] ?? '';
  const last = word.split(/[\\/]/).filter(Boolean).at(-1) ?? '';
  // `server-memory@1.2.3` → `server-memory`, `index.js` → `index`.
  return last.replace(/\.(m?js|cjs|ts|py)$/, '').replace(/(.)@.*$/, '$1');
}

/** `text` as a source name: runs of other characters become `-`, at most 48 characters. */
function _slug(text: string): string {
  return text
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[-_]+|-+$/g, '')
    .slice(0, 48);
}

/** A YAML double-quoted string that the loader does not interpolate. */
function _yamlString(text: string): string {
  // A function, not the string '$${': in a replacement string `$$` stands for one `$`.
  return JSON.stringify(text.replaceAll('${', () => '$${'));
}
