import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  expandConfigPath,
  formatConfigIssue,
  loadConfig,
  parseConfig,
  REDACTED,
  redactConfig,
} from '../src/config/index.js';
import { base, KEY_A, KEY_B, load, refusal, yaml } from './config-helpers.js';

describe('defaults', () => {
  it('fills in every default from a file with only identity.key_file', () => {
    const { config, warnings } = parseConfig(yaml('identity:', '  key_file: keys/a.key'), '/etc/xp/a.yml', {
      env: {},
      homeDir: '/home/ada',
    });
    expect(warnings).toEqual([]);
    expect(config).toEqual({
      file: '/etc/xp/a.yml',
      mode: 'xprotocol',
      identity: { keyFile: '/etc/xp/keys/a.key', displayName: 'XProtocol MCP Adapter' },
      relay: {
        urls: [],
        reconnectIntervalSeconds: 5,
        eventTtlSeconds: 3600,
        replayWindowSeconds: 3600,
        maxClockSkewSeconds: 300,
        replayMemoryMaxIds: 1_000_000,
      },
      mcpSources: [],
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
  it('gives the MCP face its defaults', () => {
    const { config } = load(base('mcp_server:', '  transport: streamable_http'));
    expect(config.mcpServer).toEqual({
      transport: 'streamable_http',
      host: '127.0.0.1',
      port: 8767,
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
  });
});

describe('values', () => {
  it('takes the replay window from event_ttl_seconds unless it is given, and the skew and memory as written', () => {
    const follows = load(
      base().replace(
        '  urls: [ws://127.0.0.1:8765]\n',
        '  urls: [ws://127.0.0.1:8765]\n  event_ttl_seconds: 600\n',
      ),
    );
    expect(follows.config.relay).toMatchObject({ eventTtlSeconds: 600, replayWindowSeconds: 600 });
    const given = load(
      base().replace(
        '  urls: [ws://127.0.0.1:8765]\n',
        '  urls: [ws://127.0.0.1:8765]\n  replay_window_seconds: 120\n  max_clock_skew_seconds: 0\n  replay_memory_max_ids: 1000\n',
      ),
    );
    expect(given.config.relay).toMatchObject({
      eventTtlSeconds: 3600,
      replayWindowSeconds: 120,
      maxClockSkewSeconds: 0,
      replayMemoryMaxIds: 1000,
    });
  });

  it('takes sse_port and sse_host as aliases of port and host, and unbrackets IPv6', () => {
    const { config } = load(
      base('mcp_server:', '  transport: sse', '  sse_port: 9001', '  sse_host: "[::1]"'),
    );
    expect(config.mcpServer).toMatchObject({ transport: 'sse', host: '::1', port: 9001 });
  });
  it('reads mcp_server.allowed_origins as serialized origins, and refuses what is not an origin', () => {
    const { config } = load(
      base(
        'mcp_server:',
        '  transport: streamable_http',
        '  allowed_origins: [http://localhost:6274, "https://Inspector.Example:443/"]',
      ),
    );
    expect(config.mcpServer?.allowedOrigins).toEqual(['http://localhost:6274', 'https://inspector.example']);
    expect(
      refusal(
        base(
          'mcp_server:',
          '  transport: streamable_http',
          '  allowed_origins: [http://localhost:6274/app, ftp://x]',
        ),
      ).message.split('\n'),
    ).toEqual([
      'config.yml:16:21 mcp_server.allowed_origins[0]: expected an http:// or https:// origin (scheme://host[:port], no path), got "http://localhost:6274/app"',
      'config.yml:16:48 mcp_server.allowed_origins[1]: expected an http:// or https:// origin (scheme://host[:port], no path), got "ftp://x"',
    ]);
  });
  it('keeps expose entries once each', () => {
    const { config } = load(
      base('mcp_server:', '  transport: stdio', '  expose: [mcp_sources, xprotocol_sources, mcp_sources]'),
    );
    expect(config.mcpServer?.expose).toEqual(['mcp_sources', 'xprotocol_sources']);
  });
  it('converts call_timeout_seconds to milliseconds', () => {
    expect(load(base('call_timeout_seconds: 2.5')).config.callTimeoutMs).toBe(2500);
  });
  it('reads an xprotocol source given by key and one or several relays', () => {
    const { config } = load(
      base(
        'xprotocol_sources:',
        '  - name: one',
        `    key: ${KEY_A}`,
        '    relay: ws://127.0.0.1:8765',
        '  - name: two',
        `    key: ${KEY_B}`,
        '    relay: [wss://a.example, wss://b.example]',
        '    mcp_tool_prefix: two_',
        '    schema_filter: [com.test.fs.read_text_file]',
      ),
    );
    expect(config.xprotocolSources).toEqual([
      {
        name: 'one',
        endpoint: undefined,
        key: KEY_A,
        relays: ['ws://127.0.0.1:8765'],
        mcpToolPrefix: '',
        schemaFilter: [],
        trustRoots: [],
        dns: 'if_published',
      },
      {
        name: 'two',
        endpoint: undefined,
        key: KEY_B,
        relays: ['wss://a.example', 'wss://b.example'],
        mcpToolPrefix: 'two_',
        schemaFilter: ['com.test.fs.read_text_file'],
        trustRoots: [],
        dns: 'if_published',
      },
    ]);
  });
  it('reads access grants and trusted issuers', () => {
    const { config } = load(
      base().replace('access:\n', `access:\n  default: deny\n  trusted_issuers: [${KEY_B}]\n`),
    );
    expect(config.access).toEqual({
      default: 'deny',
      grants: [{ key: KEY_A, capabilities: ['com.test.fs.read'] }],
      trustedIssuers: [KEY_B],
    });
  });
  it('reads an explicit source with overrides and an allowlist', () => {
    const { config } = load(
      base(
        '    capability_inference: explicit',
        '    capabilities: [fs.read, fs.write]',
        '    tool_allowlist: [read_text_file, write_file]',
        '    schema_overrides:',
        '      read_text_file:',
        '        title: Read',
        '        required_capability: fs.read',
        '    rate_limit: { requests_per_minute: 30 }',
        '    description_quality_threshold: 0.5',
        '    description_quality_floor: 0.1',
        '    schema_refresh_interval_seconds: 60',
        '    connect_timeout_seconds: 2.5',
        '    timeouts:',
        '      default_seconds: 90',
        '      tools: { write_file: 2.5 }',
      ),
    );
    expect(config.mcpSources[0]).toMatchObject({
      capabilityInference: 'explicit',
      capabilities: ['fs.read', 'fs.write'],
      toolAllowlist: ['read_text_file', 'write_file'],
      schemaOverrides: { read_text_file: { title: 'Read', required_capability: 'fs.read' } },
      rateLimit: { requestsPerMinute: 30 },
      descriptionQualityThreshold: 0.5,
      descriptionQualityFloor: 0.1,
      descriptionLint: 'quarantine',
      schemaRefreshIntervalSeconds: 60,
      connectTimeoutMs: 2500,
      callTimeouts: { defaultMs: 90_000, toolsMs: { write_file: 2500 } },
    });
  });
  it('treats empty values as absent', () => {
    const { config } = load(base('    args:', '    env:', '    tool_allowlist:'));
    expect(config.mcpSources[0]?.env).toEqual({});
    expect(config.mcpSources[0]?.toolAllowlist).toBeUndefined();
  });
  it('follows YAML anchors and aliases', () => {
    const { config } = load(
      base(
        '    env: &common',
        '      LEVEL: debug',
        '  - name: fs2',
        '    transport: stdio',
        '    command: x',
        '    xprotocol_namespace: com.test.fs2',
        '    env: *common',
      ),
    );
    expect(config.mcpSources[1]?.env).toEqual({ LEVEL: 'debug' });
  });
});

describe('paths', () => {
  const where = { homeDir: '/home/ada', baseDir: '/etc/xp' };
  it.each([
    ['~', '/home/ada'],
    ['~/.xprotocol/a.key', '/home/ada/.xprotocol/a.key'],
    ['/abs/a.key', '/abs/a.key'],
    ['rel/a.key', '/etc/xp/rel/a.key'],
    ['../a.key', '/etc/a.key'],
    ['~x', '/etc/xp/~x'],
  ])('%s → %s', (path, expected) => {
    expect(expandConfigPath(path, where)).toBe(expected);
  });
  it('expands key_file, parent_delegation_event, logging.output and state_database', () => {
    const { config } = parseConfig(
      yaml(
        'identity:',
        '  key_file: ~/.xprotocol/adapter.key',
        '  parent_delegation_event: ./delegation.json',
        'logging:',
        '  output: ~/logs/xp.log',
        '  level: debug',
        '  format: text',
        'state_database: state/xp.db',
      ),
      '/etc/xp/adapter.yml',
      { env: {}, homeDir: '/home/ada' },
    );
    expect(config.identity.keyFile).toBe('/home/ada/.xprotocol/adapter.key');
    expect(config.logging).toEqual({
      level: 'debug',
      format: 'text',
      output: { file: '/home/ada/logs/xp.log' },
    });
    expect(config.stateDatabase).toBe('/etc/xp/state/xp.db');
  });
  it('passes :memory: and stdout through', () => {
    const { config } = load(
      yaml('identity:', '  key_file: /k', 'state_database: ":memory:"', 'logging:', '  output: stdout'),
    );
    expect(config.stateDatabase).toBe(':memory:');
    expect(config.logging.output).toBe('stdout');
  });
});

describe('warnings', () => {
  const lines = (text: string) => load(text).warnings.map(formatConfigIssue);
  it('access.default: allow', () => {
    expect(lines(base().replace('access:\n', 'access:\n  default: allow\n'))).toEqual([
      'config.yml:6:12 access.default: "allow": any key may call every tool of the mcp_sources',
    ]);
  });
  it('an access section without grants', () => {
    expect(lines(base().replace(/access:\n(.*\n){3}/, 'access:\n  default: deny\n'))).toEqual([
      'config.yml:5:1 access: no access.grants: every call XProtocol clients make to the mcp_sources is refused with AUTHORIZATION_INSUFFICIENT (access.default is "deny")',
    ]);
  });
  it('no access section, only when there are mcp_sources', () => {
    expect(lines(base().replace(/access:\n(.*\n){3}/, ''))).toEqual([
      'config.yml:1:1 access: no access section: every call XProtocol clients make to the mcp_sources is refused with AUTHORIZATION_INSUFFICIENT until access.grants give keys capabilities (access.default is "deny")',
    ]);
    expect(lines(yaml('identity:', '  key_file: /k'))).toEqual([]);
  });
  it('a wildcard grant', () => {
    expect(lines(base().replace('[com.test.fs.read]', '[com.test.fs.read, "*"]'))).toEqual([
      'config.yml:8:40 access.grants[0].capabilities[1]: "*" grants every capability, on every source',
    ]);
  });
  it('a granted capability no tool can require (a namespace typo)', () => {
    expect(
      lines(base().replace('[com.test.fs.read]', '[com.test.files.read, com.test.*, com.test.fs.write]')),
    ).toEqual([
      'config.yml:8:22 access.grants[0].capabilities[0]: "com.test.files.read" matches no capability a tool or MCP request of the mcp_sources can require (com.test.fs.access, com.test.fs.admin, com.test.fs.delete, com.test.fs.execute, … 5 more)',
    ]);
    // an override's required_capability counts
    expect(
      lines(
        base(
          '    schema_overrides:',
          '      read_text_file:',
          '        required_capability: files.read',
        ).replace('[com.test.fs.read]', '[files.read]'),
      ),
    ).toEqual([]);
  });
  it('public binds, honoured', () => {
    const { config, warnings } = load(
      base(
        'mcp_server:',
        '  transport: streamable_http',
        '  host: 0.0.0.0',
        'discovery:',
        '  well_known_port: 8766',
        '  well_known_host: "::"',
      ),
    );
    expect(warnings.map(formatConfigIssue)).toEqual([
      'config.yml:14:1 mcp_server: the MCP face lists only search_tools: it exposes xprotocol_sources (the default with a relay) and there are none; add expose: [mcp_sources] to serve the mcp_sources on the face too',
      'config.yml:16:9 mcp_server.host: 0.0.0.0 listens on every network interface: the MCP face is reachable from other machines, and with no auth anyone who reaches it can call every tool: set mcp_server.auth.token_env',
      'config.yml:19:20 discovery.well_known_host: :: listens on every network interface: discovery is reachable from other machines',
    ]);
    expect(config.mcpServer?.host).toBe('0.0.0.0');
    expect(config.discovery).toMatchObject({ wellKnownPort: 8766, wellKnownHost: '::' });
  });
  it('mcp_server.auth: the token comes from the variable token_env names, and is redacted', () => {
    const text = base(
      'mcp_server:',
      '  transport: streamable_http',
      '  host: 0.0.0.0',
      '  auth:',
      '    token_env: FACE_TOKEN',
    );
    const { config, warnings } = load(text, { env: { FACE_TOKEN: 'face-secret-1' }, homeDir: '/home/ada' });
    expect(config.mcpServer?.bearerToken).toBe('face-secret-1');
    expect(redactConfig(config).mcpServer?.bearerToken).toBe(REDACTED);
    // With auth, the public-bind warning no longer says anyone can call every tool.
    expect(warnings.map(formatConfigIssue)).toEqual([
      'config.yml:14:1 mcp_server: the MCP face lists only search_tools: it exposes xprotocol_sources (the default with a relay) and there are none; add expose: [mcp_sources] to serve the mcp_sources on the face too',
      'config.yml:16:9 mcp_server.host: 0.0.0.0 listens on every network interface: the MCP face is reachable from other machines',
    ]);
    const error = refusal(text, { env: {}, homeDir: '/home/ada' });
    expect(error.issues.map(formatConfigIssue)).toEqual([
      'config.yml:18:16 mcp_server.auth.token_env: environment variable FACE_TOKEN is not set: it must hold the bearer token',
    ]);
  });
  it('mcp_server.auth is ignored, with a warning, over stdio', () => {
    const { config, warnings } = load(
      base('mcp_server:', '  transport: stdio', '  auth:', '    token_env: FACE_TOKEN'),
    );
    expect(config.mcpServer?.bearerToken).toBeUndefined();
    expect(warnings.map(formatConfigIssue)).toEqual([
      'config.yml:14:1 mcp_server: the MCP face lists only search_tools: it exposes xprotocol_sources (the default with a relay) and there are none; add expose: [mcp_sources] to serve the mcp_sources on the face too',
      'config.yml:16:3 mcp_server.auth: ignored: transport is "stdio" (it applies to "streamable_http" and "sse")',
    ]);
  });
  it('parent_key and parent_delegation_event load without a warning of their own', () => {
    const text = base()
      .replace(
        '  key_file: ./adapter.key',
        `  key_file: ./adapter.key\n  parent_key: ${KEY_B}\n  parent_delegation_event: d.json`,
      )
      .replace('access:\n', `access:\n  trusted_issuers: [${KEY_B}]\n`);
    expect(load(text).warnings.map((w) => `${w.code} ${w.path}`)).toEqual([
      'TRUSTED_ISSUER_WITHOUT_GRANT access.trusted_issuers[0]',
    ]);
  });
  it('discovery DNS keys: publish_dns with dns_name, dns_servers, and the dns policy of each source', () => {
    const { config, warnings } = load(
      base(
        'discovery:',
        '  publish_dns: true',
        '  dns_name: Acme.Example.',
        '  dns_servers: ["127.0.0.1:53535", "[::1]:53", 192.0.2.53]',
        'xprotocol_sources:',
        '  - name: strict',
        '    endpoint: xp://acme.example',
        '    dns: required',
        '  - name: usual',
        '    endpoint: xp://other.example',
      ),
    );
    expect(warnings).toEqual([]);
    expect(config.discovery).toMatchObject({
      publishDns: true,
      dnsName: 'acme.example',
      dnsServers: ['127.0.0.1:53535', '[::1]:53', '192.0.2.53'],
    });
    expect(config.xprotocolSources.map((s) => s.dns)).toEqual(['required', 'if_published']);
    expect(load(base('discovery:', '  publish_dns: false')).config.discovery).toMatchObject({
      publishDns: false,
      dnsName: undefined,
      dnsServers: [],
    });
  });
  it('discovery DNS keys: what is refused, and dns beside key is ignored with a warning', () => {
    expect(refusal(base('discovery:', '  publish_dns: true')).message).toContain(
      'discovery.dns_name: missing, expected the domain callers reach this adapter by (acme.example): publish_dns prints the TXT record to publish at _xprotocol.<dns_name>',
    );
    expect(refusal(base('discovery:', '  dns_name: localhost')).message).toContain(
      'discovery.dns_name: expected a domain name with at least two labels (acme.example), no scheme, no port',
    );
    expect(refusal(base('discovery:', '  dns_servers: ["127.0.0.1:99999"]')).message).toContain(
      'discovery.dns_servers[0]: expected an IP address with an optional port (192.0.2.53, 127.0.0.1:53535, [::1]:53), got "127.0.0.1:99999"',
    );
    expect(refusal(base('discovery:', '  dns_servers: [ns.example]')).message).toContain(
      'discovery.dns_servers[0]: expected an IP address with an optional port',
    );
    expect(
      refusal(base('xprotocol_sources:', '  - name: w', '    endpoint: xp://a.example', '    dns: maybe'))
        .message,
    ).toContain('xprotocol_sources[0].dns: expected "required" | "if_published" | "off", got "maybe"');
    const keyed = load(
      base(
        'xprotocol_sources:',
        '  - name: w',
        `    key: ${KEY_B}`,
        '    relay: ws://127.0.0.1:8765',
        '    dns: required',
      ),
    );
    expect(keyed.warnings.map((w) => `${w.code} ${w.path}`)).toEqual([
      'IGNORED_KEY xprotocol_sources[0].dns',
    ]);
  });
  it('trusted issuers: honoured; one without a grant of its own is warned, since its chains give nothing', () => {
    const granted = base().replace('access:\n', `access:\n  trusted_issuers: [${KEY_A}, ${KEY_B}]\n`);
    expect(load(granted).warnings.map(formatConfigIssue)).toEqual([
      `config.yml:6:95 access.trusted_issuers[1]: ${KEY_B} has no grant in access.grants: the delegation chains it issues give nothing here (a chain holds what both it and its root's grant cover)`,
    ]);
  });
  it('keys without effect', () => {
    const text = base(
      '    capabilities: [fs.read]',
      '    tool_allowlist: [read_text_file]',
      '    schema_overrides:',
      '      write_file: { description: Writes a file }',
      'discovery:',
      '  well_known_host: 127.0.0.2',
    );
    expect(load(text).warnings.map(formatConfigIssue)).toEqual([
      'config.yml:14:5 mcp_sources[0].capabilities: ignored: capability_inference is "auto" (capabilities are used by "explicit")',
      'config.yml:17:7 mcp_sources[0].schema_overrides.write_file: ignored: "write_file" is not in tool_allowlist',
      'config.yml:19:3 discovery.well_known_host: ignored: discovery is served only when well_known_port is set',
    ]);
  });
  it('an explicit capability no tool class maps to', () => {
    expect(
      lines(base('    capability_inference: explicit', '    capabilities: [fs.read, fs.browse]')),
    ).toEqual([
      'config.yml:8:22 access.grants[0].capabilities[0]: "com.test.fs.read" matches no capability a tool or MCP request of the mcp_sources can require (com.test.fs.mcp.completion, com.test.fs.mcp.prompts.get, com.test.fs.mcp.resources.read, fs.browse, … 1 more)',
      'config.yml:15:29 mcp_sources[0].capabilities[1]: ends in "browse", which no tool class maps to (read, write, delete, execute, admin, access); only schema_overrides.<tool>.required_capability can use it',
    ]);
  });
  it('the YAML parser’s own warnings', () => {
    expect(lines(yaml('identity:', '  key_file: !custom /k'))).toEqual([
      'config.yml:2:13 unresolved tag: !custom',
    ]);
  });
});

describe('loadConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'xp-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file (with a byte order mark) and resolves paths from its folder', () => {
    const file = join(dir, 'adapter.yml');
    writeFileSync(file, `\uFEFF${yaml('identity:', '  key_file: adapter.key')}`);
    const { config } = loadConfig(file, { env: {}, homeDir: '/home/ada' });
    expect(config.file).toBe(file);
    expect(config.identity.keyFile).toBe(join(dir, 'adapter.key'));
  });
  it('names the file as given in messages', () => {
    const file = join(dir, 'bad.yml');
    writeFileSync(file, yaml('identity:', '  key_file: /k', 'logging:', '  level: loud'));
    expect(() => loadConfig(file, { env: {} })).toThrow(
      `${file}:4:10 logging.level: expected "debug" | "info" | "warn" | "error", got "loud"`,
    );
  });
  it.each([
    ['a missing file', 'missing.yml', 'cannot read the configuration: no such file'],
    ['a directory', '.', 'cannot read the configuration: it is a directory, expected a YAML file'],
  ])('refuses %s with CONFIG_READ', (_id, name, message) => {
    const path = join(dir, name);
    try {
      loadConfig(path);
      expect.unreachable('loadConfig should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).code).toBe('CONFIG_READ');
      expect((error as ConfigError).message).toBe(`${path}: ${message}`);
    }
  });
});

describe('sections supplied by the caller (LoadConfigOptions.sections)', () => {
  const sections = { identity: { key_file: '/dev/keys/a.key' }, relay: { urls: ['ws://127.0.0.1:8765'] } };
  const sources = yaml(
    'mcp_sources:',
    '  - name: fs',
    '    transport: stdio',
    '    command: node server.js',
    '    xprotocol_namespace: com.test.fs',
  );

  it('are used when the file has none, and checked like the file', () => {
    const { config } = parseConfig(sources, '/etc/xp/a.yml', { env: {}, homeDir: '/home/ada', sections });
    expect(config.identity.keyFile).toBe('/dev/keys/a.key');
    expect(config.relay.urls).toEqual(['ws://127.0.0.1:8765']);
    expect(
      refusal(sources, { env: {}, sections: { ...sections, relay: { urls: ['http://x'] } } }).message,
    ).toBe('config.yml:1:1 relay.urls[0]: expected a ws:// or wss:// URL, got "http://x"');
  });

  it("the file's own section wins", () => {
    const text = yaml(
      'identity:',
      '  key_file: /mine.key',
      'relay:',
      '  urls: [wss://relay.example]',
      sources,
    );
    const { config } = parseConfig(text, '/etc/xp/a.yml', { env: {}, homeDir: '/home/ada', sections });
    expect(config.identity.keyFile).toBe('/mine.key');
    expect(config.relay.urls).toEqual(['wss://relay.example']);
  });
});
