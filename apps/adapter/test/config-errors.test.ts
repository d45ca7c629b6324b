import { describe, expect, it } from 'vitest';
import { ConfigError, formatConfigIssue } from '../src/config/index.js';
import { base, KEY_A, problems, refusal, yaml } from './config-helpers.js';

const FS_COMMAND = 'command: npx -y @modelcontextprotocol/server-filesystem /tmp';

/** [case id, file text, the exact message lines]. Lines and columns are 1-based. */
const CASES: [string, string, string[]][] = [
  [
    'enum: unknown transport',
    base().replace('transport: stdio', 'transport: tcp'),
    ['config.yml:11:16 mcp_sources[0].transport: expected "stdio" | "sse" | "streamable_http", got "tcp"'],
  ],
  [
    'port out of range',
    base('mcp_server:', '  transport: streamable_http', '  port: 70000'),
    ['config.yml:16:9 mcp_server.port: expected a port number from 1 to 65535, got 70000'],
  ],
  [
    'quoted port is a string',
    base('mcp_server:', '  transport: streamable_http', '  port: "8080"'),
    ['config.yml:16:9 mcp_server.port: expected a port number from 1 to 65535, got "8080"'],
  ],
  [
    'reserved namespace',
    base().replace('namespace: com.test.fs', 'namespace: xp.tools'),
    [
      'config.yml:13:26 mcp_sources[0].xprotocol_namespace: expected a namespace outside "xp", which is reserved for protocol kinds, got "xp.tools"',
    ],
  ],
  [
    'malformed namespace',
    base().replace('namespace: com.test.fs', 'namespace: com..fs'),
    [
      'config.yml:13:26 mcp_sources[0].xprotocol_namespace: expected a namespace of dot-separated segments of [A-Za-z0-9_-]+ (for example com.acme.files), got "com..fs"',
    ],
  ],
  [
    'stdio without command',
    base().replace(`    ${FS_COMMAND}\n`, ''),
    [
      'config.yml:10:5 mcp_sources[0].command: missing, expected a command line: transport "stdio" runs a command',
    ],
  ],
  [
    'sse without url',
    base().replace('transport: stdio', 'transport: sse').replace(`    ${FS_COMMAND}\n`, ''),
    [
      'config.yml:10:5 mcp_sources[0].url: missing, expected an http:// or https:// URL: transport "sse" connects to one',
    ],
  ],
  [
    'url with the wrong scheme',
    base().replace('transport: stdio', 'transport: sse').replace(FS_COMMAND, 'url: ftp://x'),
    ['config.yml:12:10 mcp_sources[0].url: expected an http:// or https:// URL, got "ftp://x"'],
  ],
  [
    'command on a remote source',
    base()
      .replace('transport: stdio', 'transport: streamable_http')
      .replace(FS_COMMAND, `${FS_COMMAND}\n    url: http://127.0.0.1:3001/mcp`),
    ['config.yml:12:5 mcp_sources[0].command: command applies to transport "stdio", not "streamable_http"'],
  ],
  [
    'unbalanced quote in command',
    base().replace('/tmp', '"/tmp'),
    [
      'config.yml:12:14 mcp_sources[0].command: cannot split the command: unbalanced double quote (opened at character 48)',
    ],
  ],
  [
    'shell operator in command',
    base().replace('/tmp', '/tmp && echo hi'),
    [
      'config.yml:12:14 mcp_sources[0].command: cannot split the command: contains the shell operator "&&" (character 53); the command is not run through a shell: quote it to pass it literally, or run a script',
    ],
  ],
  [
    'empty program name',
    base().replace(FS_COMMAND, `command: "'' -y x"`),
    ['config.yml:12:14 mcp_sources[0].command: the program to run (the first word) is empty'],
  ],
  [
    'empty program in an argv list',
    base().replace(FS_COMMAND, 'command: ["", x]'),
    ['config.yml:12:15 mcp_sources[0].command[0]: the program to run (the first entry) is empty'],
  ],
  [
    'command of the wrong type',
    base().replace(FS_COMMAND, 'command: 42'),
    [
      'config.yml:12:14 mcp_sources[0].command: expected a command line or a non-empty list of arguments, got 42',
    ],
  ],
  [
    'explicit inference without capabilities',
    base('    capability_inference: explicit'),
    [
      'config.yml:10:5 mcp_sources[0].capabilities: missing, expected a non-empty list of capabilities: capability_inference is "explicit"',
    ],
  ],
  [
    'explicit inference with an empty list',
    base('    capability_inference: explicit', '    capabilities: []'),
    [
      'config.yml:15:5 mcp_sources[0].capabilities: missing, expected a non-empty list of capabilities: capability_inference is "explicit"',
    ],
  ],
  [
    'explicit capabilities ending alike',
    base('    capability_inference: explicit', '    capabilities: [fs.read, files.read]'),
    [
      'config.yml:15:29 mcp_sources[0].capabilities[1]: ends in "read" like capabilities[0]: explicit inference maps each tool class to the one capability ending in it',
    ],
  ],
  [
    'quality floor above the threshold',
    base('    description_quality_floor: 0.5', '    description_quality_threshold: 0.3'),
    [
      'config.yml:14:32 mcp_sources[0].description_quality_floor: expected at most description_quality_threshold (0.3), got 0.5',
    ],
  ],
  [
    'quality floor out of [0, 1]',
    base('    description_quality_floor: 1.5'),
    ['config.yml:14:32 mcp_sources[0].description_quality_floor: expected a number from 0 to 1, got 1.5'],
  ],
  [
    'duplicate source name and namespace',
    base('  - name: fs', '    transport: stdio', '    command: x', '    xprotocol_namespace: com.test.fs'),
    [
      'config.yml:14:11 mcp_sources[1].name: name "fs" is already used by mcp_sources[0] (source names are unique)',
      'config.yml:17:26 mcp_sources[1].xprotocol_namespace: namespace "com.test.fs" is already used by mcp_sources[0]',
    ],
  ],
  [
    'source names are unique across both lists',
    base('xprotocol_sources:', '  - name: fs', '    endpoint: xp://fs.example'),
    [
      'config.yml:15:11 xprotocol_sources[0].name: name "fs" is already used by mcp_sources[0] (source names are unique)',
    ],
  ],
  [
    'xprotocol source with neither endpoint nor key',
    base('xprotocol_sources:', '  - name: w'),
    [
      'config.yml:15:5 xprotocol_sources[0].endpoint: missing, expected an xp://host[:port] endpoint, or key and relay',
    ],
  ],
  [
    'xprotocol source key without relay',
    base('xprotocol_sources:', '  - name: w', `    key: ${KEY_A}`),
    [
      'config.yml:15:5 xprotocol_sources[0].relay: missing, expected a ws:// or wss:// URL (or a list): key needs the relay the endpoint listens on',
    ],
  ],
  [
    'xprotocol source with endpoint and key',
    base(
      'xprotocol_sources:',
      '  - name: w',
      '    endpoint: xp://a.example',
      `    key: ${KEY_A}`,
      '    relay: ws://r',
    ),
    [
      'config.yml:17:5 xprotocol_sources[0].key: give either endpoint, or key with relay, not both',
      'config.yml:18:5 xprotocol_sources[0].relay: give either endpoint, or key with relay, not both',
    ],
  ],
  [
    'endpoint that is not xp://',
    base('xprotocol_sources:', '  - name: w', '    endpoint: https://a.example'),
    [
      'config.yml:16:15 xprotocol_sources[0].endpoint: expected an xp://host[:port] endpoint, got "https://a.example"',
    ],
  ],
  [
    'endpoint port out of range',
    base('xprotocol_sources:', '  - name: w', '    endpoint: xp://a.example:99999'),
    [
      'config.yml:16:15 xprotocol_sources[0].endpoint: expected an xp://host[:port] endpoint, got "xp://a.example:99999"',
    ],
  ],
  [
    'relay list of the wrong scheme',
    base(
      'xprotocol_sources:',
      '  - name: w',
      `    key: ${KEY_A}`,
      '    relay: [wss://ok.example, https://r.example]',
    ),
    [
      'config.yml:17:31 xprotocol_sources[0].relay[1]: expected a ws:// or wss:// URL, got "https://r.example"',
    ],
  ],
  [
    'tool prefix with a dot',
    base(
      'xprotocol_sources:',
      '  - name: w',
      '    endpoint: xp://a.example:8443',
      '    mcp_tool_prefix: "w."',
    ),
    [
      'config.yml:17:22 xprotocol_sources[0].mcp_tool_prefix: expected at most 32 characters of [A-Za-z0-9_-], got "w."',
    ],
  ],
  [
    'relay url over http',
    base().replace('ws://127.0.0.1:8765', 'http://127.0.0.1:8765'),
    ['config.yml:4:10 relay.urls[0]: expected a ws:// or wss:// URL, got "http://127.0.0.1:8765"'],
  ],
  [
    'relay url listed twice',
    base().replace('[ws://127.0.0.1:8765]', '[ws://127.0.0.1:8765, ws://127.0.0.1:8765]'),
    ['config.yml:4:31 relay.urls[1]: "ws://127.0.0.1:8765" is already listed at relay.urls[0]'],
  ],
  [
    'replay window of zero',
    base().replace(
      '  urls: [ws://127.0.0.1:8765]\n',
      '  urls: [ws://127.0.0.1:8765]\n  replay_window_seconds: 0\n',
    ),
    [
      'config.yml:5:26 relay.replay_window_seconds: expected a whole number of seconds from 1 to 86400, got 0',
    ],
  ],
  [
    'negative clock skew',
    base().replace(
      '  urls: [ws://127.0.0.1:8765]\n',
      '  urls: [ws://127.0.0.1:8765]\n  max_clock_skew_seconds: -5\n',
    ),
    [
      'config.yml:5:27 relay.max_clock_skew_seconds: expected a whole number of seconds from 0 to 3600, got -5',
    ],
  ],
  [
    'clock skew as a fraction',
    base().replace(
      '  urls: [ws://127.0.0.1:8765]\n',
      '  urls: [ws://127.0.0.1:8765]\n  max_clock_skew_seconds: 1.5\n',
    ),
    [
      'config.yml:5:27 relay.max_clock_skew_seconds: expected a whole number of seconds from 0 to 3600, got 1.5',
    ],
  ],
  [
    'replay memory too small',
    base().replace(
      '  urls: [ws://127.0.0.1:8765]\n',
      '  urls: [ws://127.0.0.1:8765]\n  replay_memory_max_ids: 10\n',
    ),
    [
      'config.yml:5:26 relay.replay_memory_max_ids: expected a whole number of ids from 1000 to 100000000, got 10',
    ],
  ],
  [
    'mcp_sources without a relay',
    base().replace('  urls: [ws://127.0.0.1:8765]\n', '  reconnect_interval_seconds: 2\n'),
    [
      'config.yml:4:3 relay.urls: missing, expected at least one ws:// or wss:// URL: mcp_sources are served to XProtocol clients through a relay, or on the MCP face when mcp_server.expose lists mcp_sources',
    ],
  ],
  [
    'placeholder key in a grant',
    base().replace(KEY_A, 'ed25519:abc123...'),
    [
      'config.yml:7:12 access.grants[0].key: expected "ed25519:" followed by 64 lowercase hex digits, got "ed25519:abc123..."',
    ],
  ],
  [
    'uppercase hex key',
    base().replace(KEY_A, KEY_A.toUpperCase().replace('ED25519', 'ed25519')),
    [
      `config.yml:7:12 access.grants[0].key: expected "ed25519:" followed by 64 lowercase hex digits, got "${KEY_A.toUpperCase().replace('ED25519', 'ed25519').slice(0, 57)}..."`,
    ],
  ],
  [
    'grant with no capabilities',
    base().replace('[com.test.fs.read]', '[]'),
    [
      'config.yml:8:21 access.grants[0].capabilities: expected a non-empty list of capabilities, got an empty list',
    ],
  ],
  [
    'grant with a malformed capability',
    base().replace('[com.test.fs.read]', '["com.test.*.read"]'),
    [
      'config.yml:8:22 access.grants[0].capabilities[0]: expected a capability, a capability ending in ".*", or "*", got "com.test.*.read"',
    ],
  ],
  [
    'logging to stdout with a stdio MCP face',
    base('logging:', '  output: stdout', 'mcp_server:', '  transport: stdio'),
    [
      'config.yml:15:11 logging.output: expected "stderr" or a file path, got "stdout": mcp_server.transport is "stdio", so stdout carries the MCP protocol',
    ],
  ],
  [
    'unknown log level',
    base('logging:', '  level: verbose'),
    ['config.yml:15:10 logging.level: expected "debug" | "info" | "warn" | "error", got "verbose"'],
  ],
  [
    'port and its alias both given',
    base('mcp_server:', '  transport: sse', '  port: 1', '  sse_port: 2'),
    ['config.yml:17:3 mcp_server.sse_port: sse_port is an alias of port: give one of them'],
  ],
  [
    'a static token and OAuth both on the MCP face',
    base(
      'mcp_server:',
      '  transport: streamable_http',
      '  auth:',
      '    token_env: HOME',
      '  oauth:',
      '    issuer: https://auth.example.com',
      '    resource: https://mcp.example.com/mcp',
    ),
    [
      'config.yml:17:16 mcp_server.auth.token_env: environment variable HOME is not set: it must hold the bearer token',
      'config.yml:18:3 mcp_server.oauth: give auth (one static bearer token) or oauth (tokens of an authorization server), not both',
    ],
  ],
  [
    'a cap per principal above its ceiling (given, or its default)',
    base(
      'mcp_server:',
      '  transport: streamable_http',
      '  max_sessions: 8',
      '  max_sessions_per_principal: 9',
      '  max_leases_per_principal: 65',
      '  max_upstream_processes_per_principal: 0',
    ),
    [
      'config.yml:17:31 mcp_server.max_sessions_per_principal: 9 is more than max_sessions (8): one principal cannot hold more than every principal together; expected at most 8',
      'config.yml:18:29 mcp_server.max_leases_per_principal: 65 is more than max_leases (64, its default): one principal cannot hold more than every principal together; expected at most 64',
      'config.yml:19:41 mcp_server.max_upstream_processes_per_principal: expected an integer from 1 to 10000, got 0',
    ],
  ],
  [
    'OAuth on the MCP face without its resource',
    base('mcp_server:', '  transport: streamable_http', '  oauth:', '    issuer: https://auth.example.com'),
    ['config.yml:17:5 mcp_server.oauth.resource: missing, expected an http:// or https:// URL'],
  ],
  [
    'discovery on the MCP face port',
    base('mcp_server:', '  transport: streamable_http', 'discovery:', '  well_known_port: 8767'),
    [
      'config.yml:17:20 discovery.well_known_port: port 8767 is already used by the MCP face (mcp_server.port)',
    ],
  ],
  [
    'path of the MCP face without a slash',
    base('mcp_server:', '  transport: streamable_http', '  path: mcp'),
    ['config.yml:16:9 mcp_server.path: expected a URL path starting with "/", got "mcp"'],
  ],
  [
    'empty expose list',
    base('mcp_server:', '  transport: stdio', '  expose: []'),
    [
      'config.yml:16:11 mcp_server.expose: expected a non-empty list of "xprotocol_sources" | "mcp_sources", got an empty list',
    ],
  ],
  [
    'environment variable name with a dash',
    base('    env:', '      bad-name: 1'),
    [
      'config.yml:15:7 mcp_sources[0].env.bad-name: expected an environment variable name ([A-Za-z_][A-Za-z0-9_]*), got "bad-name"',
    ],
  ],
  [
    'empty required value',
    base().replace('name: fs', 'name:'),
    [
      'config.yml:10:5 mcp_sources[0].name: expected a name of letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit), got an empty value',
    ],
  ],
  [
    'missing identity',
    yaml('relay:', '  urls: []'),
    ['config.yml:1:1 identity: missing, expected a mapping with key_file (and display_name)'],
  ],
  [
    '"~user" paths',
    yaml('identity:', '  key_file: ~ada/adapter.key'),
    [
      'config.yml:2:13 identity.key_file: expected a path ("~" and "~/…" are expanded; "~user" is not supported), got "~ada/adapter.key"',
    ],
  ],
  [
    '"~user" log file',
    base('logging:', '  output: ~ada/xp.log'),
    [
      'config.yml:15:11 logging.output: expected a path ("~" and "~/…" are expanded; "~user" is not supported), got "~ada/xp.log"',
    ],
  ],
  [
    'auth on a stdio source',
    base('    auth:', '      token_env: T'),
    [
      'config.yml:14:5 mcp_sources[0].auth: auth applies to transport "sse" or "streamable_http", not "stdio"',
    ],
  ],
  [
    'unknown auth type',
    base()
      .replace('transport: stdio', 'transport: sse')
      .replace(
        FS_COMMAND,
        'url: https://mcp.example.com/sse\n    auth:\n      type: basic\n      token_env: T',
      ),
    [
      'config.yml:14:13 mcp_sources[0].auth.type: expected "bearer" | "oauth", got "basic"',
      'config.yml:15:18 mcp_sources[0].auth.token_env: environment variable T is not set: it must hold the bearer token',
    ],
  ],
  [
    'rate limit of zero',
    base('    rate_limit:', '      requests_per_minute: 0'),
    [
      'config.yml:15:28 mcp_sources[0].rate_limit.requests_per_minute: expected a whole number from 1 to 1000000, got 0',
    ],
  ],
  [
    'required capability override that is a grant pattern',
    base('    schema_overrides:', '      read_file:', '        required_capability: fs.*'),
    [
      'config.yml:16:30 mcp_sources[0].schema_overrides.read_file.required_capability: expected a capability of dot-separated segments of [A-Za-z0-9_-]+, got "fs.*"',
    ],
  ],
  [
    'connect timeout of zero',
    base('    connect_timeout_seconds: 0'),
    [
      'config.yml:14:30 mcp_sources[0].connect_timeout_seconds: expected a number of seconds above 0, at most 600, got 0',
    ],
  ],
  [
    'connect timeout over ten minutes',
    base('    connect_timeout_seconds: 601'),
    [
      'config.yml:14:30 mcp_sources[0].connect_timeout_seconds: expected a number of seconds above 0, at most 600, got 601',
    ],
  ],
  [
    'call timeout of zero',
    base('call_timeout_seconds: 0'),
    ['config.yml:14:23 call_timeout_seconds: expected a number of seconds above 0, at most 3600, got 0'],
  ],
];

describe('each bad value is refused with its position, what was expected and what was found', () => {
  it.each(CASES)('%s', (id, text, expected) => {
    const error = refusal(text);
    expect(error, id).toBeInstanceOf(ConfigError);
    expect(error.code, id).toBe('CONFIG_INVALID');
    expect(error.message.split('\n'), id).toEqual(expected);
    expect(error.issues.map(formatConfigIssue), id).toEqual(expected);
  });
});

describe('unknown keys', () => {
  it('suggests the nearest key of the same mapping', () => {
    expect(problems(base().replace('xprotocol_namespace:', 'namespace:'))).toEqual([
      'config.yml:13:5 mcp_sources[0].namespace: unknown key, did you mean "xprotocol_namespace"?',
    ]);
    expect(problems(base().replace('xprotocol_namespace:', 'xprotocol_namepsace:'))).toEqual([
      'config.yml:13:5 mcp_sources[0].xprotocol_namepsace: unknown key, did you mean "xprotocol_namespace"?',
    ]);
    expect(problems(yaml('identity:', '  keyFile: a.key'))).toEqual([
      'config.yml:2:3 identity.keyFile: unknown key, did you mean "key_file"?',
    ]);
    // The cross-checks keep the same rule: the misspelt relay.urls is not also "missing".
    expect(problems(base().replace('  urls: [ws://127.0.0.1:8765]', '  url: ws://127.0.0.1:8765'))).toEqual([
      'config.yml:4:3 relay.url: unknown key, did you mean "urls"?',
    ]);
    expect(
      problems(
        base('    schema_overrides:', '      read_file:', '        semantic:', '          use_wen: x'),
      ),
    ).toEqual([
      'config.yml:17:11 mcp_sources[0].schema_overrides.read_file.semantic.use_wen: unknown key, did you mean "use_when"?',
    ]);
  });
  it('names the section a misplaced key belongs to', () => {
    expect(problems(base('well_known_port: 8766'))).toEqual([
      'config.yml:14:1 well_known_port: unknown key here: well_known_port belongs under discovery',
    ]);
    expect(problems(base('xprotocol_namspace: x'))).toEqual([
      'config.yml:14:1 xprotocol_namspace: unknown key here, did you mean "xprotocol_namespace" (under mcp_sources[] or openapi_sources[])?',
    ]);
  });
  it('explains that YAML merge keys are not supported', () => {
    expect(problems(yaml('anchors: &b', '  key_file: /k', 'identity:', '  <<: *b'))).toEqual([
      'config.yml:1:1 anchors: unknown key, expected one of "identity", "relay", "mcp_sources", "openapi_sources", "xprotocol_sources", "mcp_server", "discovery", "logging", "access", "state_database", "shared_state", "call_timeout_seconds", "network", "limits", "admin", "audit", "tracing"',
      'config.yml:4:3 identity.key_file: missing, expected a file path',
      'config.yml:4:3 identity["<<"]: YAML merge keys ("<<") are not supported: write the keys out, or alias a whole value',
    ]);
  });
  it('lists the known keys when nothing is close', () => {
    expect(problems(base('logging:', '  colour: true'))).toEqual([
      'config.yml:15:3 logging.colour: unknown key, expected one of "level", "format", "output"',
    ]);
  });
  it('refuses a token written in the file instead of named by token_env', () => {
    const text = base()
      .replace('transport: stdio', 'transport: sse')
      .replace(FS_COMMAND, 'url: https://mcp.example.com/sse\n    auth:\n      token: abc');
    expect(problems(text)).toEqual([
      'config.yml:14:7 mcp_sources[0].auth.token: unknown key, did you mean "token_env"?',
    ]);
  });
});

describe('YAML syntax', () => {
  it.each([
    [
      'unclosed quote',
      'identity:\n  key_file: "a\n',
      [
        'config.yml:2:13 invalid YAML: the "…" string opened here is never closed: expected a closing "; everything after it, to the end of the file, was read as the string',
      ],
    ],
    [
      'duplicate key',
      'identity:\n  key_file: a\n  key_file: b\n',
      ['config.yml:3:3 invalid YAML: duplicate key "key_file": a key may appear once in a mapping'],
    ],
    [
      'tab indentation',
      'identity:\n\tkey_file: a\n',
      [
        'config.yml:2:1 invalid YAML: a tab in the indentation: YAML indents with spaces only; replace the tab with spaces',
      ],
    ],
    [
      'two documents',
      'identity:\n  key_file: a\n---\nidentity:\n  key_file: b\n',
      [
        'config.yml:3:1 invalid YAML: a second YAML document starts here: expected one document per configuration file (remove this "---" or what follows it)',
      ],
    ],
  ])('%s is reported with line and column', (id, text, expected) => {
    const error = refusal(text);
    expect(error.code, id).toBe('CONFIG_SYNTAX');
    expect(error.message.split('\n'), id).toEqual(expected);
  });
  it('refuses an empty file and a file that is not a mapping', () => {
    expect(problems('')).toEqual([
      'config.yml: the file is empty: expected a mapping with at least identity.key_file',
    ]);
    expect(problems('# only a comment\n')).toEqual([
      'config.yml: the file is empty: expected a mapping with at least identity.key_file',
    ]);
    expect(problems('- a\n- b\n')).toEqual([
      'config.yml:1:1 expected a mapping of settings (identity, relay, mcp_sources, …), got a list of 2',
    ]);
  });
});

describe('every problem at once', () => {
  it('reports shape and cross-field problems together, sorted by position', () => {
    const text = yaml(
      'identity:',
      '  key_file: ./a.key',
      '  display_nam: x',
      'relay:',
      '  urls: [http://relay]',
      'mcp_sources:',
      '  - name: a',
      '    transport: stdio',
      '    xprotocol_namespace: xp.bad',
      '  - name: a',
      '    transport: tcp',
      '    xprotocol_namespace: com.ok',
      'logging:',
      '  output: stdout',
      'mcp_server:',
      '  transport: stdio',
    );
    expect(problems(text)).toEqual([
      'config.yml:3:3 identity.display_nam: unknown key, did you mean "display_name"?',
      'config.yml:5:10 relay.urls[0]: expected a ws:// or wss:// URL, got "http://relay"',
      'config.yml:7:5 mcp_sources[0].command: missing, expected a command line: transport "stdio" runs a command',
      'config.yml:9:26 mcp_sources[0].xprotocol_namespace: expected a namespace outside "xp", which is reserved for protocol kinds, got "xp.bad"',
      'config.yml:10:11 mcp_sources[1].name: name "a" is already used by mcp_sources[0] (source names are unique)',
      'config.yml:11:16 mcp_sources[1].transport: expected "stdio" | "sse" | "streamable_http", got "tcp"',
      'config.yml:14:11 logging.output: expected "stderr" or a file path, got "stdout": mcp_server.transport is "stdio", so stdout carries the MCP protocol',
    ]);
  });
  it('keeps warnings found before the refusal', () => {
    const error = refusal(base('access_typo: 1').replace('access:', 'accesss:'));
    expect(error.issues.map((i) => i.path)).toEqual(['accesss', 'access_typo']);
    expect(error.warnings.map((w) => w.code)).toEqual(['ACCESS_NO_GRANTS']);
  });
});
