// mcp_sources[].auth with type oauth (docs/config.md, "auth of an MCP source"):
// `client_metadata_url`, the Client ID Metadata Document the operator hosts, is read into the
// source's OAuth settings and refused unless it is an https URL with a path and no fragment, and
// with the client credentials grant.
import { describe, expect, it } from 'vitest';
import { load, problems, yaml } from './config-helpers.js';

/** A file with one OAuth HTTP source; `auth` lines go under its `auth:`. */
function withOAuth(...auth: string[]): string {
  return yaml(
    'identity:',
    '  key_file: ./adapter.key',
    'relay:',
    '  urls: [ws://127.0.0.1:8765]',
    'mcp_sources:',
    '  - name: remote',
    '    transport: streamable_http',
    '    url: https://mcp.example.com/mcp',
    '    xprotocol_namespace: com.example.remote',
    '    auth:',
    '      type: oauth',
    ...auth.map((line) => `      ${line}`),
  );
}

const ENV = { env: { SECRET: 's-1' }, homeDir: '/home/ada' };

describe('auth.client_metadata_url', () => {
  it('is read into the source, beside no client_id', () => {
    const { config } = load(
      withOAuth('client_metadata_url: https://adapter.example.com/oauth/client.json'),
      ENV,
    );
    expect(config.mcpSources[0]?.oauth).toMatchObject({
      grant: 'authorization_code',
      clientId: undefined,
      clientMetadataUrl: 'https://adapter.example.com/oauth/client.json',
    });
  });

  it.each([
    ['http://adapter.example.com/client.json', 'has scheme http'],
    ['https://adapter.example.com/', 'has no path'],
    ['https://adapter.example.com', 'has no path'],
    ['https://adapter.example.com/client.json#me', 'has a fragment'],
    ['https://ada:pw@adapter.example.com/client.json', 'has credentials in it'],
    ['not a url', 'is not a URL'],
  ])('refuses %s: %s', (url, why) => {
    expect(problems(withOAuth(`client_metadata_url: ${JSON.stringify(url)}`), ENV)).toEqual([
      `config.yml:12:28 mcp_sources[0].auth.client_metadata_url: ${JSON.stringify(url)} ${why}: expected an https URL with a path and no fragment (the Client ID Metadata Document you host, e.g. https://example.com/oauth/client.json)`,
    ]);
  });

  it('is refused with client credentials and with type bearer', () => {
    expect(
      problems(
        withOAuth(
          'grant: client_credentials',
          'client_id: m2m',
          'client_secret_env: SECRET',
          'client_metadata_url: https://adapter.example.com/client.json',
        ),
        ENV,
      ),
    ).toEqual([
      'config.yml:15:7 mcp_sources[0].auth.client_metadata_url: client_metadata_url applies to grant "authorization_code"; client credentials use client_id and client_secret_env',
    ]);
    const bearer = withOAuth().replace('type: oauth', 'type: bearer\n      token_env: SECRET');
    expect(
      problems(`${bearer}\n      client_metadata_url: https://adapter.example.com/client.json\n`, ENV),
    ).toEqual([
      'config.yml:14:7 mcp_sources[0].auth.client_metadata_url: client_metadata_url applies to type "oauth", not "bearer"',
    ]);
  });
});
