// openapi_sources (docs/config.md, "openapi_sources"): an entry is validated with the catalog keys
// of mcp_sources and its own, its credentials read from the environment when the file loads (a
// missing variable is an error then, not at the first call), its document path made absolute, and
// its secrets redacted from the configuration that is logged.
import { describe, expect, it } from 'vitest';
import { redactConfig } from '../src/config/index.js';
import { load, problems, yaml } from './config-helpers.js';

/** A file with one OpenAPI source; `extra` lines are appended to the entry. */
function withOpenApi(...extra: string[]): string {
  return yaml(
    'identity:',
    '  key_file: ./adapter.key',
    'relay:',
    '  urls: [ws://127.0.0.1:8765]',
    'openapi_sources:',
    '  - name: pets',
    '    document: specs/petstore.yaml',
    '    xprotocol_namespace: com.test.pets',
    ...extra,
  );
}

const ENV = {
  env: { PET_KEY: 'k-123', PET_TOKEN: 't-456', USER: 'ada', PASS: 'p-789', CLIENT_SECRET: 's-012' },
  homeDir: '/home/ada',
};

describe('openapi_sources', () => {
  it('becomes a source with transport openapi, its path absolute and its credentials read', () => {
    const { config } = load(
      withOpenApi(
        '    operations: [getPetById, findPetsByStatus]',
        '    base_url: http://127.0.0.1:9000/api/v3',
        '    server_variables: { port: 8443 }',
        '    auth:',
        '      api_key: { api_key_env: PET_KEY }',
        '      petstore_auth: { bearer_env: PET_TOKEN }',
        '      basic: { username_env: USER, password_env: PASS }',
        '    rate_limit: { requests_per_minute: 60 }',
      ),
      ENV,
    );
    const [source] = config.mcpSources;
    expect(source?.transport).toBe('openapi');
    expect(source?.namespace).toBe('com.test.pets');
    expect(source?.rateLimit.requestsPerMinute).toBe(60);
    expect(source?.openapi).toEqual({
      document: expect.stringMatching(/\/specs\/petstore\.yaml$/),
      operations: ['getPetById', 'findPetsByStatus'],
      baseUrl: 'http://127.0.0.1:9000/api/v3',
      serverVariables: { port: '8443' },
      credentials: {
        api_key: { type: 'api_key', value: 'k-123' },
        petstore_auth: { type: 'bearer', token: 't-456' },
        basic: { type: 'basic', username: 'ada', password: 'p-789' },
      },
      maxResponseBytes: 4 * 1024 * 1024,
    });
    expect(source?.openapi?.document.startsWith('/')).toBe(true);
  });

  it('redacts every credential from the configuration that is logged', () => {
    const { config } = load(
      withOpenApi(
        '    auth:',
        '      api_key: { api_key_env: PET_KEY }',
        '      petstore_auth: { bearer_env: PET_TOKEN }',
        '      basic: { username_env: USER, password_env: PASS }',
      ),
      ENV,
    );
    const logged = JSON.stringify(redactConfig(config));
    for (const secret of ['k-123', 't-456', 'p-789']) expect(logged).not.toContain(secret);
  });

  it('reads OAuth client credentials, the secret from its variable and redacted when logged', () => {
    const { config } = load(
      withOpenApi(
        '    auth:',
        '      petstore_auth: { client_id: pets-client, client_secret_env: CLIENT_SECRET, scope: "read:pets" }',
      ),
      ENV,
    );
    expect(config.mcpSources[0]?.openapi?.credentials).toEqual({
      petstore_auth: {
        type: 'client_credentials',
        clientId: 'pets-client',
        clientSecret: 's-012',
        scope: 'read:pets',
      },
    });
    expect(JSON.stringify(redactConfig(config))).not.toContain('s-012');
    expect(
      problems(withOpenApi('    auth:', '      petstore_auth: { client_id: pets-client }'), ENV),
    ).toEqual([
      'config.yml:10:22 openapi_sources[0].auth.petstore_auth.client_secret_env: missing, expected the name of the variable holding the client secret',
    ]);
  });

  it('refuses a credential whose variable is not set, naming the variable and the scheme', () => {
    expect(problems(withOpenApi('    auth:', '      api_key: { api_key_env: NOT_SET }'), ENV)).toEqual([
      'config.yml:10:31 openapi_sources[0].auth.api_key.api_key_env: environment variable NOT_SET is not set: it must hold the credential for the security scheme api_key',
    ]);
  });

  it('refuses two forms of credentials for one scheme, and a user without a password', () => {
    expect(
      problems(
        withOpenApi(
          '    auth:',
          '      api_key: { api_key_env: PET_KEY, bearer_env: PET_TOKEN }',
          '      basic: { username_env: USER }',
        ),
        ENV,
      ),
    ).toEqual([
      'config.yml:10:16 openapi_sources[0].auth.api_key: expected one form of credentials, got api_key_env and bearer_env: api_key_env, bearer_env, username_env with password_env, or client_id with client_secret_env',
      'config.yml:11:14 openapi_sources[0].auth.basic.password_env: missing, expected the name of the variable holding the password',
    ]);
  });

  it('refuses a scope beside a credential that is not OAuth client credentials', () => {
    expect(
      problems(
        withOpenApi('    auth:', '      petstore_auth: { bearer_env: PET_TOKEN, scope: "read:pets" }'),
        ENV,
      ),
    ).toEqual([
      'config.yml:10:47 openapi_sources[0].auth.petstore_auth.scope: scope applies only to client_id with client_secret_env (the OAuth client-credentials exchange), not to bearer_env; remove it',
    ]);
  });

  it('refuses a document that is neither a path nor an http(s) URL, and an unknown key', () => {
    expect(
      problems(
        withOpenApi('    documents: x').replace('document: specs/petstore.yaml', 'document: ftp://x/y'),
        ENV,
      ),
    ).toEqual([
      'config.yml:7:15 openapi_sources[0].document: expected a file path or an https:// URL (http:// only on a loopback host), got "ftp://x/y"',
      'config.yml:9:5 openapi_sources[0].documents: unknown key, did you mean "document"?',
    ]);
  });

  it('refuses a namespace an mcp_sources entry already uses', () => {
    const text = yaml(
      'identity:',
      '  key_file: ./adapter.key',
      'relay:',
      '  urls: [ws://127.0.0.1:8765]',
      'mcp_sources:',
      '  - name: fs',
      '    transport: stdio',
      '    command: npx -y @modelcontextprotocol/server-filesystem /tmp',
      '    xprotocol_namespace: com.test.pets',
      'openapi_sources:',
      '  - name: pets',
      '    document: specs/petstore.yaml',
      '    xprotocol_namespace: com.test.pets',
    );
    expect(problems(text, ENV)).toEqual([
      'config.yml:13:26 openapi_sources[0].xprotocol_namespace: namespace "com.test.pets" is already used by mcp_sources[0]',
    ]);
  });
});
