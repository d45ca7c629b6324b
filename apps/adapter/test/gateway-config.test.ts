// biome-ignore-all lint/suspicious/noTemplateCurlyInString: an argument with a literal ${NAME} must reach the upstream as written
/**
 * The file `xprotocol-adapter gateway` builds and prints (src/cli/gateway-config.ts), loaded by the
 * loader `start` uses: every argument reaches the upstream exactly as given (nothing interpolated,
 * quotes and blanks kept), names are unique and readable, and the result is a pure MCP gateway on
 * 127.0.0.1 that requires the token, with no warning.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN_ENV, type GatewaySettings, gatewayYaml } from '../src/cli/gateway-config.js';
import { parseConfig } from '../src/config/index.js';

const settings = (over: Partial<GatewaySettings>): GatewaySettings => ({
  upstreams: [],
  port: 8767,
  tokenEnv: DEFAULT_TOKEN_ENV,
  passEnv: [],
  requestsPerMinute: 600,
  ...over,
});
const load = (text: string, env: Record<string, string> = {}) =>
  parseConfig(text, 'gateway.yml', {
    env: { [DEFAULT_TOKEN_ENV]: 'the-token', ...env },
    homeDir: '/home/ada',
  });

describe('the gateway command’s configuration', () => {
  it('passes every argument as given: no interpolation, quotes, blanks and unicode kept', () => {
    const argv = [
      'node',
      '/srv/${HOME}/server.js',
      '--name',
      'a "quoted" word',
      "it's",
      '$${x}',
      '~/x',
      'é ✓',
      '',
    ];
    const { config, warnings } = load(gatewayYaml(settings({ upstreams: [{ argv }] })));
    expect(warnings).toEqual([]);
    expect(config.mcpSources[0]!.command).toEqual(argv);
  });

  it('is a pure MCP gateway on 127.0.0.1 that requires the token from the variable', () => {
    const { config } = load(
      gatewayYaml(
        settings({
          upstreams: [
            { argv: ['npx', '-y', '@modelcontextprotocol/server-memory'] },
            { url: 'http://127.0.0.1:3001/mcp' },
          ],
          port: 9100,
          requestsPerMinute: 1200,
        }),
      ),
    );
    expect(config.mode).toBe('mcp_gateway');
    expect(config.mcpServer).toMatchObject({
      transport: 'streamable_http',
      host: '127.0.0.1',
      port: 9100,
      path: '/mcp',
      expose: ['mcp_sources'],
      bearerToken: 'the-token',
    });
    expect(config.mcpSources.map((s) => [s.name, s.transport, s.url, s.rateLimit.requestsPerMinute])).toEqual(
      [
        ['server-memory', 'stdio', undefined, 1200],
        ['127-0-0-1-3001', 'streamable_http', 'http://127.0.0.1:3001/mcp', 1200],
      ],
    );
  });

  it('names each upstream after its server, uniquely', () => {
    const { config } = load(
      gatewayYaml(
        settings({
          upstreams: [
            { argv: ['node', '/opt/dist/index.js', 'stdio'] },
            { argv: ['npx', '-y', '@scope/server-memory@1.2.3'] },
            { argv: ['uvx', 'mcp-server-fetch'] },
            { argv: ['uvx', 'mcp-server-fetch'] },
            { argv: ['my-server'] },
            { url: 'https://mcp.example.com/mcp' },
          ],
        }),
      ),
    );
    expect(config.mcpSources.map((s) => s.name)).toEqual([
      'index',
      'server-memory',
      'mcp-server-fetch',
      'mcp-server-fetch-2',
      'my-server',
      'mcp-example-com',
    ]);
  });

  it('passes the --env variables to every stdio upstream, read when the file is loaded', () => {
    const text = gatewayYaml(settings({ upstreams: [{ argv: ['server'] }], passEnv: ['API_KEY'] }));
    expect(text).not.toContain('secret-value');
    const { config } = load(text, { API_KEY: 'secret-value' });
    expect(config.mcpSources[0]!.env).toEqual({ API_KEY: 'secret-value' });
  });
});
