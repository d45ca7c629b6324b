// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${NAME} text
/**
 * Secrets — the values of a source's `env`, anything under `auth`, bearer tokens — never appear
 * in a message: not in errors, not in warnings, not in the redacted copy meant for logs.
 */
import { describe, expect, it } from 'vitest';
import { type ConfigError, REDACTED, redactConfig } from '../src/config/index.js';
import { base, KEY_B, load, refusal } from './config-helpers.js';

const SECRET = 'sk-live-4f9c2b7e1d';

function remote(...authLines: string[]): string {
  return base()
    .replace('transport: stdio', 'transport: streamable_http')
    .replace(
      'command: npx -y @modelcontextprotocol/server-filesystem /tmp',
      ['url: https://mcp.example.com/mcp', '    auth:', ...authLines.map((l) => `      ${l}`)].join('\n'),
    );
}

function everything(error: ConfigError): string {
  return JSON.stringify({ message: error.message, issues: error.issues, warnings: error.warnings });
}

describe('secrets are never echoed', () => {
  it('a wrong env value is described, not shown', () => {
    const error = refusal(base('    env:', `      API_KEY: [${SECRET}]`));
    expect(error.message).toBe(
      'config.yml:15:16 mcp_sources[0].env.API_KEY: expected a string (or a number or boolean), got a value (not shown)',
    );
    expect(everything(error)).not.toContain(SECRET);
  });
  it('a token pasted into token_env is not shown', () => {
    const error = refusal(remote(`token_env: ${SECRET}`));
    expect(error.message).toBe(
      'config.yml:14:18 mcp_sources[0].auth.token_env: expected an environment variable name ([A-Za-z_][A-Za-z0-9_]*), got a value (not shown)',
    );
    expect(everything(error)).not.toContain(SECRET);
  });
  it('a token that happens to look like a variable name is not shown either', () => {
    const token = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
    const error = refusal(remote(`token_env: ${token}`));
    expect(error.message).toBe(
      'config.yml:14:18 mcp_sources[0].auth.token_env: the environment variable named here is not set (its name is not shown: it does not look like a variable name, and token_env takes the name of the variable that holds the token, not the token)',
    );
    expect(everything(error)).not.toContain(token);
  });
  it('an unknown key under auth names the key only', () => {
    const error = refusal(remote('token_env: MCP_TOKEN', `token: ${SECRET}`), { env: { MCP_TOKEN: 't' } });
    expect(error.message).toBe(
      'config.yml:15:7 mcp_sources[0].auth.token: unknown key, did you mean "token_env"?',
    );
    expect(everything(error)).not.toContain(SECRET);
  });
  it('an unset token variable is named, an empty one too, and the value never', () => {
    expect(refusal(remote('token_env: MCP_TOKEN'), { env: {} }).message).toBe(
      'config.yml:14:18 mcp_sources[0].auth.token_env: environment variable MCP_TOKEN is not set: it must hold the bearer token',
    );
    expect(refusal(remote('token_env: MCP_TOKEN'), { env: { MCP_TOKEN: '' } }).message).toBe(
      'config.yml:14:18 mcp_sources[0].auth.token_env: environment variable MCP_TOKEN is empty: it must hold the bearer token',
    );
  });
  it('an interpolated env value that fails names the variable, not a value', () => {
    const error = refusal(base('    env:', '      API_KEY: ${SECRET_KEY}'), { env: {} });
    expect(error.message).toBe(
      'config.yml:15:16 mcp_sources[0].env.API_KEY: environment variable SECRET_KEY is not set (use ${SECRET_KEY:-default} to give a default)',
    );
  });
});

describe('credentials in URLs', () => {
  it('are refused where the URL is published, without repeating them', () => {
    const text = base(
      'xprotocol_sources:',
      '  - name: w',
      `    key: ${KEY_B}`,
      `    relay: [wss://bob:${SECRET}@r.example]`,
    )
      .replace('ws://127.0.0.1:8765', `wss://alice:${SECRET}@relay.example`)
      .replace('transport: stdio', 'transport: sse')
      .replace(
        'command: npx -y @modelcontextprotocol/server-filesystem /tmp',
        `url: https://carol:${SECRET}@mcp.example.com/sse`,
      );
    const error = refusal(text);
    expect(error.message.split('\n')).toEqual([
      'config.yml:4:10 relay.urls[0]: expected a URL without a user or password, got one with credentials (not shown): relay URLs are disclosed in the announce',
      'config.yml:12:10 mcp_sources[0].url: expected a URL without a user or password, got one with credentials (not shown): it is disclosed in the announce: use auth.token_env',
      'config.yml:17:13 xprotocol_sources[0].relay[0]: expected a URL without a user or password, got one with credentials (not shown): relay URLs are shared with peers',
    ]);
    expect(everything(error)).not.toContain(SECRET);
  });
  it('are left out when a URL of the wrong scheme is shown', () => {
    const error = refusal(base().replace('ws://127.0.0.1:8765', `https://dave:${SECRET}@relay.example`));
    expect(error.message.split('\n')).toEqual([
      'config.yml:4:10 relay.urls[0]: expected a ws:// or wss:// URL, got "https://(credentials not shown)@relay.example"',
      'config.yml:4:10 relay.urls[0]: expected a URL without a user or password, got one with credentials (not shown): relay URLs are disclosed in the announce',
    ]);
    expect(everything(error)).not.toContain(SECRET);
  });
});

describe('the resolved token', () => {
  it('is in the normalized config as bearerToken', () => {
    const { config } = load(remote('token_env: MCP_TOKEN'), { env: { MCP_TOKEN: SECRET }, homeDir: '/h' });
    expect(config.mcpSources[0]?.bearerToken).toBe(SECRET);
    expect(config.mcpSources[0]?.url).toBe('https://mcp.example.com/mcp');
  });
  it('and the env values are replaced in the copy meant for logs', () => {
    const { config } = load(base('    env:', `      API_KEY: ${SECRET}`), { env: {}, homeDir: '/h' });
    const remoteConfig = load(remote('token_env: MCP_TOKEN'), {
      env: { MCP_TOKEN: SECRET },
      homeDir: '/h',
    }).config;
    const safe = redactConfig({ ...config, mcpSources: [...config.mcpSources, ...remoteConfig.mcpSources] });
    expect(JSON.stringify(safe)).not.toContain(SECRET);
    expect(safe.mcpSources[0]?.env).toEqual({ API_KEY: REDACTED });
    expect(safe.mcpSources[1]?.bearerToken).toBe(REDACTED);
    // the original is untouched
    expect(config.mcpSources[0]?.env.API_KEY).toBe(SECRET);
  });
});
