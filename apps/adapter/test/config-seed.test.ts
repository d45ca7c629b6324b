/**
 * The specification's own example files (the full one and the minimal one, copied verbatim into
 * test/fixtures/config/). The full file's values are illustrations (docs/design.md §13): its
 * placeholder key and its `output: stdout` beside a stdio MCP face are rightly refused; with those
 * two fixed and the token variable set, the file loads. The minimal file loads as written, warning
 * that no `access` is configured.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatConfigIssue, loadConfig, parseConfig } from '../src/config/index.js';
import { KEY_A, refusal } from './config-helpers.js';

const FULL = 'test/fixtures/config/seed-3.1-full.yml';
const MINIMAL = 'test/fixtures/config/seed-3.2-minimal.yml';
const HOME = { homeDir: '/home/ada' };

describe('the full example file, as printed', () => {
  it('is refused for its placeholder key, the stdout log beside a stdio face and the unset token', () => {
    const error = refusal(readFileSync(FULL, 'utf8'), { env: {}, ...HOME });
    expect(error.message.split('\n')).toEqual([
      'config.yml:13:15 identity.parent_key: expected "ed25519:" followed by 64 lowercase hex digits, got "ed25519:abc123..."',
      'config.yml:73:18 mcp_sources[1].auth.token_env: environment variable SALESFORCE_MCP_TOKEN is not set: it must hold the bearer token',
      'config.yml:142:11 logging.output: expected "stderr" or a file path, got "stdout": mcp_server.transport is "stdio", so stdout carries the MCP protocol',
    ]);
  });

  it('loads once the placeholder and stdout are replaced and the token is set', () => {
    const text = readFileSync(FULL, 'utf8')
      .replace('parent_key: ed25519:abc123...', `parent_key: ${KEY_A}`)
      .replace('output: stdout ', 'output: /var/log/xp.log');
    const { config, warnings } = parseConfig(text, '/etc/xp/adapter.yml', {
      env: { SALESFORCE_MCP_TOKEN: 'sf-token-1' },
      ...HOME,
    });
    expect(warnings.map(formatConfigIssue)).toEqual([
      '/etc/xp/adapter.yml:4:1 access: no access section: every call XProtocol clients make to the mcp_sources is refused with AUTHORIZATION_INSUFFICIENT until access.grants give keys capabilities (access.default is "deny")',
      '/etc/xp/adapter.yml:44:5 mcp_sources[0].capabilities: ignored: capability_inference is "auto" (capabilities are used by "explicit")',
      '/etc/xp/adapter.yml:126:3 mcp_server.sse_port: ignored: transport is "stdio" (it applies to "streamable_http" and "sse")',
      '/etc/xp/adapter.yml:127:3 mcp_server.sse_host: ignored: transport is "stdio" (it applies to "streamable_http" and "sse")',
      '/etc/xp/adapter.yml:136:20 discovery.well_known_host: 0.0.0.0 listens on every network interface: discovery is reachable from other machines',
    ]);
    expect(warnings.map((w) => w.code)).toEqual([
      'ACCESS_NO_GRANTS',
      'IGNORED_KEY',
      'IGNORED_KEY',
      'IGNORED_KEY',
      'PUBLIC_BIND',
    ]);
    expect(config.file).toBe('/etc/xp/adapter.yml');
    // The chain file is loaded when the adapter starts (runtime/adapter-chain.ts), not here.
    expect(config.identity).toEqual({
      keyFile: '/home/ada/.xprotocol/adapter.key',
      displayName: 'Acme Corp XProtocol Adapter',
      parentKey: KEY_A,
      parentDelegationEvent: '/path/to/delegation.json',
    });
    expect(config.relay).toEqual({
      urls: ['wss://relay.xprotocol.ai', 'wss://relay2.xprotocol.ai'],
      reconnectIntervalSeconds: 5,
      eventTtlSeconds: 3600,
      replayWindowSeconds: 3600,
      maxClockSkewSeconds: 300,
      replayMemoryMaxIds: 1_000_000,
    });
    expect(config.mcpSources.map((s) => [s.name, s.namespace, s.transport])).toEqual([
      ['filesystem', 'com.acme.filesystem', 'stdio'],
      ['salesforce-crm', 'com.salesforce.crm', 'sse'],
      ['postgres', 'com.acme.database', 'stdio'],
      ['internal-api', 'com.acme.internal', 'sse'],
    ]);
    const [fs, crm, pg, internal] = config.mcpSources;
    expect(fs?.command).toEqual(['npx', '@modelcontextprotocol/server-filesystem', '/data']);
    expect(fs?.env).toEqual({ DATA_DIR: '/var/data' });
    expect(fs?.schemaOverrides.read_file).toEqual({
      description: 'Read contents of a file from the data directory',
      required_capability: 'filesystem.read',
      semantic: {
        use_when: 'Agent needs to read the full text or binary content of a specific file',
        do_not_use_when: 'Agent wants to list files in a directory — use list_directory',
        example_inputs: [{ path: 'reports/q1.csv', encoding: 'utf-8' }],
      },
    });
    expect(fs?.schemaOverrides.handle_thing?.semantic?.intent_verbs).toEqual([
      'validate',
      'process',
      'submit',
    ]);
    expect(crm).toMatchObject({
      url: 'https://mcp.salesforce.com/sse',
      bearerToken: 'sf-token-1',
      command: undefined,
      rateLimit: { requestsPerMinute: 100 },
    });
    expect(pg?.command).toEqual([
      'npx',
      '@modelcontextprotocol/server-postgres',
      'postgresql://localhost:5432/mydb',
    ]);
    expect(internal).toMatchObject({
      capabilityInference: 'explicit',
      capabilities: ['internal.read', 'internal.write'],
      toolAllowlist: ['get_customer', 'create_order', 'update_status'],
      url: 'http://localhost:3001/mcp',
    });
    expect(config.xprotocolSources).toEqual([
      {
        name: 'weather-service',
        endpoint: 'xp://weather.example.com',
        key: undefined,
        relays: [],
        mcpToolPrefix: 'weather_',
        schemaFilter: ['weather.current.get', 'weather.forecast.get'],
        trustRoots: [],
        dns: 'if_published',
      },
      {
        name: 'xprotocol-chat',
        endpoint: 'xp://xprotocolchat.ai',
        key: undefined,
        relays: [],
        mcpToolPrefix: 'chat_',
        schemaFilter: [],
        trustRoots: [],
        dns: 'if_published',
      },
    ]);
    expect(config.mcpServer).toEqual({
      transport: 'stdio',
      host: '127.0.0.1',
      port: 8765,
      path: '/mcp',
      expose: ['xprotocol_sources'],
      allowedOrigins: [],
      maxSessions: 64,
      maxRequestsInFlight: 32,
      maxRequestsInFlightTotal: 256,
      maxLeases: 64,
      maxUpstreamProcesses: 32,
      maxResultBytes: 16 * 1024 * 1024,
      listing: 'full',
      resultSummaryBytes: 65_536,
      idempotencyWindowSeconds: 86_400,
    });
    expect(config.discovery).toMatchObject({ wellKnownPort: 8766, wellKnownHost: '0.0.0.0' });
    expect(config.logging).toEqual({ level: 'info', format: 'json', output: { file: '/var/log/xp.log' } });
    expect(config.access).toEqual({ default: 'deny', grants: [], trustedIssuers: [] });
  });
});

describe('the minimal example file (docs/design.md §13)', () => {
  it('loads as written, with defaults, and warns that no access is configured', () => {
    const { config, warnings } = loadConfig(MINIMAL, { env: {}, ...HOME });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.code).toBe('ACCESS_NO_GRANTS');
    expect(warnings[0]?.path).toBe('access');
    expect(formatConfigIssue(warnings[0]!)).toMatch(/ access: .*AUTHORIZATION_INSUFFICIENT/);
    expect(config).toEqual({
      mode: 'xprotocol',
      file: `${process.cwd()}/${MINIMAL}`,
      identity: { keyFile: '/home/ada/.xprotocol/adapter.key', displayName: 'My Adapter' },
      relay: {
        urls: ['wss://relay.xprotocol.ai'],
        reconnectIntervalSeconds: 5,
        eventTtlSeconds: 3600,
        replayWindowSeconds: 3600,
        maxClockSkewSeconds: 300,
        replayMemoryMaxIds: 1_000_000,
      },
      mcpSources: [
        {
          name: 'my-server',
          namespace: 'com.myorg.myserver',
          transport: 'stdio',
          command: ['npx', 'my-mcp-server'],
          env: {},
          url: undefined,
          bearerToken: undefined,
          mcpRevision: '2025-11-25',
          connectTimeoutMs: 30_000,
          approvals: {},
          capabilityInference: 'auto',
          capabilities: [],
          schemaOverrides: {},
          toolAllowlist: undefined,
          rateLimit: { requestsPerMinute: 600 },
          descriptionQualityThreshold: 0.4,
          descriptionQualityFloor: 0.2,
          descriptionLint: 'quarantine',
          schemaRefreshIntervalSeconds: 300,
          callTimeouts: { defaultMs: undefined, toolsMs: {} },
        },
      ],
      xprotocolSources: [],
      mcpServer: undefined,
      discovery: {
        wellKnownPort: undefined,
        wellKnownHost: '127.0.0.1',
        publishDns: false,
        dnsName: undefined,
        dnsServers: [],
      },
      logging: { level: 'info', format: 'auto', output: 'stderr' },
      access: { default: 'deny', grants: [], trustedIssuers: [] },
      stateDatabase: undefined,
      callTimeoutMs: 30000,
      network: { allowPrivate: [] },
      limits: { maxArgumentDepth: 64, maxArgumentBytes: 4194304 },
    });
  });
});
