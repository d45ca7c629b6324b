/**
 * Rules that relate several values (docs/design.md §4, §13), checked on the raw interpolated values
 * so they are reported together with shape problems; each rule only looks at values of the right
 * type (the shape check reports the others). Also emits the warnings: later-issue keys, public
 * binds, open or empty `access`, wildcard grants, keys that have no effect.
 * @module
 */

import { capabilityMatches } from '@xprotocol/translate';
import type { _Collector } from './_collector.js';
import type { KeyPath } from './_path.js';
import { _nearestKey } from './_suggest.js';
import { splitCommandLine } from './command-line.js';
import { _exposed } from './mode.js';
import { _modeChecks, _rawModeFacts } from './mode-checks.js';
import { _openApiAuthChecks } from './openapi-checks.js';
import { _operateChecks } from './operate-checks.js';
import { _relaySchema } from './schema.js';
import { _sourceAuthChecks } from './source-auth-checks.js';

/** The keys of `relay`, for telling a misspelt `urls` from a missing one. */
const RELAY_KEYS = Object.keys(_relaySchema.shape);

type Obj = Record<string, unknown>;

/** Capability classes a tool can infer (translate's `CapabilityClass`, docs/design.md §4). */
const CAPABILITY_CLASSES = ['read', 'write', 'delete', 'execute', 'admin', 'access'];
/** What `xp.mcp.request` requires under a source's namespace (docs/protocol.md §10.4). */
const MCP_CAPABILITIES = ['mcp.resources.read', 'mcp.prompts.get', 'mcp.completion'];

function _obj(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}
function _list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
function _str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
function _has(o: Obj | undefined, key: string): boolean {
  return o !== undefined && Object.hasOwn(o, key);
}
/** True for a bind address that listens on every interface. */
export function _isPublicHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]' || host === '0:0:0:0:0:0:0:0';
}

/** Runs every cross-field rule over the raw values. */
export function _crossChecks(c: _Collector, env: Readonly<Record<string, string | undefined>>): void {
  const root = _obj(c.source.value);
  // not a mapping: the shape check says so
  if (root === undefined) return;
  const names = new Map<string, string>();
  // OpenAPI services are wrapped sources too: they need a relay or the face, and access.
  const mcpSources = [..._list(root.mcp_sources), ..._list(root.openapi_sources)];
  const facts = _rawModeFacts(root);
  const gateway = _modeChecks(c, root, facts);
  const faceServesSources = _exposed(facts).includes('mcp_sources');
  _identity(c, _obj(root.identity));
  _sharedStateDatabase(c, root);
  _relay(c, _obj(root.relay), mcpSources.length, faceServesSources);
  const namespaces = new Map<string, string>();
  _list(root.mcp_sources).forEach((item, i) => {
    _mcpSource(c, _obj(item), i, names, namespaces, env);
  });
  _list(root.openapi_sources).forEach((item, i) => {
    _openApiSourceChecks(c, _obj(item), i, names, namespaces, env);
  });
  _list(root.xprotocol_sources).forEach((item, i) => {
    _xprotocolSource(c, _obj(item), i, names);
  });
  const server = _obj(root.mcp_server);
  _mcpServer(c, server, env);
  // A pure MCP gateway has no XProtocol endpoint: discovery and access are ignored (mode-checks.ts).
  if (!gateway) _discovery(c, _obj(root.discovery), server);
  _logging(c, _obj(root.logging), server);
  if (!gateway) _access(c, root, mcpSources.length, faceServesSources);
  _operateChecks(c, root, env);
}

/**
 * `parent_key` is checked against the last link of the chain file (at start, runtime/adapter-chain.ts):
 * alone, there is nothing to check it against.
 */
function _identity(c: _Collector, identity: Obj | undefined): void {
  if (_has(identity, 'parent_key') && !_has(identity, 'parent_delegation_event')) {
    c.error(
      ['identity', 'parent_key'],
      'set without identity.parent_delegation_event: expected the chain file (xprotocol-adapter register --output) whose last link parent_key issued',
      'key',
    );
  }
}

/** `shared_state` without a database of its own needs a Postgres `state_database` to share. */
function _sharedStateDatabase(c: _Collector, root: Obj): void {
  const shared = _obj(root.shared_state);
  if (shared === undefined || _has(shared, 'database')) return;
  const state = _str(root.state_database);
  if (state !== undefined && /^postgres(ql)?:\/\//i.test(state)) return;
  c.error(
    ['shared_state'],
    'has no database and state_database is not a postgres:// URL: expected shared_state.database, or state_database: postgres://user:password@host:port/database',
    'key',
  );
}

/**
 * Relay URLs are distinct and carry no credentials; mcp_sources need one unless the MCP face
 * serves them (a pure MCP gateway, config/mode.ts).
 */
function _relay(c: _Collector, relay: Obj | undefined, mcpSourceCount: number, onFace: boolean): void {
  const urls = _list(relay?.urls);
  const seen = new Map<string, number>();
  urls.forEach((url, i) => {
    if (typeof url !== 'string') return;
    _noCredentials(c, ['relay', 'urls', i], url, 'relay URLs are disclosed in the announce');
    const first = seen.get(url);
    if (first !== undefined)
      c.error(['relay', 'urls', i], `${JSON.stringify(url)} is already listed at relay.urls[${first}]`);
    else seen.set(url, i);
  });
  // A misspelt `urls` (`url: ws://…`) is reported once, as the unknown key it is, not also as missing.
  const misspelt = Object.keys(relay ?? {}).some(
    (key) => key !== 'urls' && _nearestKey(key, RELAY_KEYS) === 'urls',
  );
  if (urls.length === 0 && mcpSourceCount > 0 && !misspelt && !onFace) {
    const path: KeyPath = relay === undefined ? ['relay'] : ['relay', 'urls'];
    c.error(
      path,
      'missing, expected at least one ws:// or wss:// URL: mcp_sources are served to XProtocol clients through a relay, or on the MCP face when mcp_server.expose lists mcp_sources',
      c.source.hasKey(path) ? 'key' : 'value',
    );
  }
}

/** Checks one `mcp_sources` entry against the others and against its own keys. */
function _mcpSource(
  c: _Collector,
  src: Obj | undefined,
  i: number,
  names: Map<string, string>,
  namespaces: Map<string, string>,
  env: Readonly<Record<string, string | undefined>>,
): void {
  if (src === undefined) return;
  const at = (...rest: (string | number)[]): KeyPath => ['mcp_sources', i, ...rest];
  _uniqueName(c, _str(src.name), at('name'), `mcp_sources[${i}]`, names);
  _uniqueNamespace(c, _str(src.xprotocol_namespace), `mcp_sources[${i}]`, at, namespaces);
  const transport = _str(src.transport);
  _transportKeys(c, src, transport, at);
  _commandLine(c, src.command, at);
  _noCredentials(c, at('url'), src.url, 'it is disclosed in the announce: use auth.token_env');
  if (transport !== 'stdio') {
    _tokenEnv(c, at('auth', 'token_env'), _obj(src.auth), env);
    _sourceAuthChecks(c, _obj(src.auth), (...rest) => at('auth', ...rest), env);
  }
  _capabilityList(c, src, at);
  _qualityBounds(c, src, at);
  _allowlist(c, src, at);
}

/** Builds the key path of a key inside one source entry. */
type _At = (...rest: (string | number)[]) => KeyPath;

/** Two sources cannot share a namespace: their kinds would collide. */
function _uniqueNamespace(
  c: _Collector,
  ns: string | undefined,
  where: string,
  at: _At,
  namespaces: Map<string, string>,
): void {
  if (ns === undefined) return;
  const first = namespaces.get(ns);
  if (first !== undefined) {
    c.error(at('xprotocol_namespace'), `namespace ${JSON.stringify(ns)} is already used by ${first}`);
  } else namespaces.set(ns, where);
}

/** Checks one `openapi_sources` entry: the rules it shares with mcp_sources, then its credentials. */
function _openApiSourceChecks(
  c: _Collector,
  src: Obj | undefined,
  i: number,
  names: Map<string, string>,
  namespaces: Map<string, string>,
  env: Readonly<Record<string, string | undefined>>,
): void {
  if (src === undefined) return;
  const at = (...rest: (string | number)[]): KeyPath => ['openapi_sources', i, ...rest];
  _uniqueName(c, _str(src.name), at('name'), `openapi_sources[${i}]`, names);
  _uniqueNamespace(c, _str(src.xprotocol_namespace), `openapi_sources[${i}]`, at, namespaces);
  _capabilityList(c, src, at);
  _qualityBounds(c, src, at);
  _openApiAuthChecks(c, _obj(src.auth), (...rest) => at('auth', ...rest), env);
}

/** `stdio` needs a command and takes no URL; `sse` and `streamable_http` the other way round. */
function _transportKeys(c: _Collector, src: Obj, transport: string | undefined, at: _At): void {
  if (transport === 'stdio') {
    if (!_has(src, 'command'))
      c.error(at('command'), 'missing, expected a command line: transport "stdio" runs a command');
    for (const key of ['url', 'auth']) {
      if (_has(src, key))
        c.error(at(key), `${key} applies to transport "sse" or "streamable_http", not "stdio"`, 'key');
    }
  } else if (transport === 'sse' || transport === 'streamable_http') {
    if (!_has(src, 'url'))
      c.error(
        at('url'),
        `missing, expected an http:// or https:// URL: transport "${transport}" connects to one`,
      );
    for (const key of ['command', 'args', 'env']) {
      if (_has(src, key)) c.error(at(key), `${key} applies to transport "stdio", not "${transport}"`, 'key');
    }
  }
}

/** The command splits into words, and its program is not empty. */
function _commandLine(c: _Collector, command: unknown, at: _At): void {
  if (typeof command === 'string' && command !== '') {
    const split = splitCommandLine(command);
    if (!split.ok) c.error(at('command'), `cannot split the command: ${split.reason}`);
    else if (split.argv[0] === '') c.error(at('command'), 'the program to run (the first word) is empty');
  } else if (Array.isArray(command) && command[0] === '') {
    c.error(at('command', 0), 'the program to run (the first entry) is empty');
  }
}

/**
 * `capabilities` under `explicit` inference: present, one per tool class (the last segment), each
 * ending in a class a tool can have; under `auto` they are ignored.
 */
function _capabilityList(c: _Collector, src: Obj, at: _At): void {
  const mode = _str(src.capability_inference) ?? 'auto';
  const capabilities = _list(src.capabilities);
  if (mode !== 'explicit') {
    if (capabilities.length > 0)
      c.warn(
        'IGNORED_KEY',
        at('capabilities'),
        'ignored: capability_inference is "auto" (capabilities are used by "explicit")',
        'key',
      );
    return;
  }
  if (capabilities.length === 0) {
    const path = at('capabilities');
    c.error(
      path,
      'missing, expected a non-empty list of capabilities: capability_inference is "explicit"',
      c.source.hasKey(path) ? 'key' : 'value',
    );
  }
  const byClass = new Map<string, number>();
  capabilities.forEach((cap, j) => {
    if (typeof cap !== 'string') return;
    const last = cap.slice(cap.lastIndexOf('.') + 1);
    const first = byClass.get(last);
    if (first !== undefined) {
      c.error(
        at('capabilities', j),
        `ends in ${JSON.stringify(last)} like capabilities[${first}]: explicit inference maps each tool class to the one capability ending in it`,
      );
    } else byClass.set(last, j);
    if (!CAPABILITY_CLASSES.includes(last)) {
      c.warn(
        'IGNORED_KEY',
        at('capabilities', j),
        `ends in ${JSON.stringify(last)}, which no tool class maps to (${CAPABILITY_CLASSES.join(', ')}); only schema_overrides.<tool>.required_capability can use it`,
      );
    }
  });
}

/** `description_quality_floor` is at most the threshold (default 0.40). */
function _qualityBounds(c: _Collector, src: Obj, at: _At): void {
  const threshold = src.description_quality_threshold;
  const floor = src.description_quality_floor;
  const t = typeof threshold === 'number' ? threshold : 0.4;
  if (typeof floor === 'number' && floor >= 0 && floor <= 1 && t >= 0 && t <= 1 && floor > t) {
    c.error(
      at('description_quality_floor'),
      `expected at most description_quality_threshold (${t}), got ${floor}`,
    );
  }
}

/** `tool_allowlist` lists each tool once; overrides of tools it leaves out are ignored. */
function _allowlist(c: _Collector, src: Obj, at: _At): void {
  const allow = src.tool_allowlist;
  if (!Array.isArray(allow)) return;
  const seen = new Set<unknown>();
  allow.forEach((tool, j) => {
    if (seen.has(tool)) c.error(at('tool_allowlist', j), `${JSON.stringify(tool)} is listed twice`);
    seen.add(tool);
  });
  const overrides = _obj(src.schema_overrides);
  for (const tool of Object.keys(overrides ?? {})) {
    if (!allow.includes(tool)) {
      c.warn(
        'IGNORED_KEY',
        at('schema_overrides', tool),
        `ignored: ${JSON.stringify(tool)} is not in tool_allowlist`,
        'key',
      );
    }
  }
}

/**
 * URLs are published (the announce discloses `mcp_sources[].url` and the relays), so a URL that
 * carries a user or password is refused, without repeating it.
 */
function _noCredentials(c: _Collector, path: KeyPath, url: unknown, why: string): void {
  if (typeof url !== 'string') return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return;
  }
  if (parsed.username !== '' || parsed.password !== '') {
    c.error(path, `expected a URL without a user or password, got one with credentials (not shown): ${why}`);
  }
}

function _uniqueName(
  c: _Collector,
  name: string | undefined,
  path: KeyPath,
  where: string,
  names: Map<string, string>,
): void {
  if (name === undefined) return;
  const first = names.get(name);
  if (first !== undefined)
    c.error(path, `name ${JSON.stringify(name)} is already used by ${first} (source names are unique)`);
  else names.set(name, where);
}

function _xprotocolSource(c: _Collector, src: Obj | undefined, i: number, names: Map<string, string>): void {
  if (src === undefined) return;
  const at = (...rest: (string | number)[]): KeyPath => ['xprotocol_sources', i, ...rest];
  _uniqueName(c, _str(src.name), at('name'), `xprotocol_sources[${i}]`, names);
  const relay = src.relay;
  if (typeof relay === 'string') _noCredentials(c, at('relay'), relay, 'relay URLs are shared with peers');
  else if (Array.isArray(relay)) {
    relay.forEach((url, j) => {
      _noCredentials(c, at('relay', j), url, 'relay URLs are shared with peers');
    });
  }
  const hasEndpoint = _has(src, 'endpoint');
  const hasKey = _has(src, 'key');
  const hasRelay = _has(src, 'relay');
  if (hasEndpoint) {
    for (const key of ['key', 'relay']) {
      if (_has(src, key)) c.error(at(key), 'give either endpoint, or key with relay, not both', 'key');
    }
  } else if (hasKey && !hasRelay) {
    c.error(
      at('relay'),
      'missing, expected a ws:// or wss:// URL (or a list): key needs the relay the endpoint listens on',
    );
  } else if (hasRelay && !hasKey) {
    c.error(
      at('key'),
      'missing, expected "ed25519:" followed by 64 lowercase hex digits: relay needs the endpoint key',
    );
  } else if (!hasKey && !hasRelay) {
    c.error(at('endpoint'), 'missing, expected an xp://host[:port] endpoint, or key and relay');
  }
  if (!hasEndpoint && _has(src, 'dns')) {
    c.warn(
      'IGNORED_KEY',
      at('dns'),
      'ignored: the DNS step checks a key learnt from an endpoint; key is given',
      'key',
    );
  }
}

/** The variable `auth.token_env` names must hold a token. */
function _tokenEnv(
  c: _Collector,
  path: KeyPath,
  auth: Obj | undefined,
  env: Readonly<Record<string, string | undefined>>,
): void {
  const tokenEnv = _str(auth?.token_env);
  if (tokenEnv === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(tokenEnv)) return;
  const token = env[tokenEnv];
  if (token !== undefined && token !== '') return;
  const state = token === undefined ? 'not set' : 'empty';
  // token_env takes a name; a value that does not look like one may be the token itself
  const message = /^[A-Z_][A-Z0-9_]{0,63}$/.test(tokenEnv)
    ? `environment variable ${tokenEnv} is ${state}: it must hold the bearer token`
    : `the environment variable named here is ${state} (its name is not shown: it does not look like a variable name, and token_env takes the name of the variable that holds the token, not the token)`;
  c.error(path, message);
}

function _mcpServer(
  c: _Collector,
  server: Obj | undefined,
  env: Readonly<Record<string, string | undefined>>,
): void {
  if (server === undefined) return;
  for (const [key, alias] of [
    ['port', 'sse_port'],
    ['host', 'sse_host'],
  ] as const) {
    if (_has(server, key) && _has(server, alias)) {
      c.error(['mcp_server', alias], `${alias} is an alias of ${key}: give one of them`, 'key');
    }
  }
  if (_has(server, 'auth') && _has(server, 'oauth')) {
    c.error(
      ['mcp_server', 'oauth'],
      'give auth (one static bearer token) or oauth (tokens of an authorization server), not both',
      'key',
    );
  }
  const transport = _str(server.transport);
  if (transport === 'stdio') {
    for (const key of [
      'host',
      'sse_host',
      'port',
      'sse_port',
      'path',
      'auth',
      'oauth',
      'allowed_origins',
      'max_requests_in_flight',
      ...Object.keys(_PER_PRINCIPAL),
      ...Object.values(_PER_PRINCIPAL).map((total) => total.key),
    ]) {
      if (_has(server, key)) {
        c.warn(
          'IGNORED_KEY',
          ['mcp_server', key],
          'ignored: transport is "stdio" (it applies to "streamable_http" and "sse")',
          'key',
        );
      }
    }
  } else if (transport !== undefined) {
    const key = _has(server, 'host') ? 'host' : 'sse_host';
    const host = _str(server[key]);
    if (host !== undefined && _isPublicHost(host)) {
      const guard = _has(server, 'auth')
        ? ''
        : ', and with no auth anyone who reaches it can call every tool: set mcp_server.auth.token_env';
      c.warn(
        'PUBLIC_BIND',
        ['mcp_server', key],
        `${host} listens on every network interface: the MCP face is reachable from other machines${guard}`,
      );
    }
    _tokenEnv(c, ['mcp_server', 'auth', 'token_env'], _obj(server.auth), env);
    _perPrincipalCaps(c, server);
  }
}

/** Each cap per principal of the HTTP face, with the ceiling it is a share of and that ceiling's default. */
const _PER_PRINCIPAL: Record<string, { key: string; default: number }> = {
  max_sessions_per_principal: { key: 'max_sessions', default: 64 },
  max_requests_in_flight_per_principal: { key: 'max_requests_in_flight_total', default: 256 },
  max_leases_per_principal: { key: 'max_leases', default: 64 },
  max_upstream_processes_per_principal: { key: 'max_upstream_processes', default: 32 },
};

/** A cap per principal over its ceiling could never be reached: it is refused, naming both. */
function _perPrincipalCaps(c: _Collector, server: Obj): void {
  for (const [key, total] of Object.entries(_PER_PRINCIPAL)) {
    const share = server[key];
    const ceiling = _has(server, total.key) ? server[total.key] : total.default;
    if (typeof share !== 'number' || typeof ceiling !== 'number' || share <= ceiling) continue;
    c.error(
      ['mcp_server', key],
      `${share} is more than ${total.key} (${ceiling}${_has(server, total.key) ? '' : ', its default'}): one principal cannot hold more than every principal together; expected at most ${ceiling}`,
    );
  }
}

function _discovery(c: _Collector, discovery: Obj | undefined, server: Obj | undefined): void {
  if (discovery === undefined) return;
  if (discovery.publish_dns === true && _str(discovery.dns_name) === undefined) {
    c.error(
      ['discovery', 'dns_name'],
      'missing, expected the domain callers reach this adapter by (acme.example): publish_dns prints the TXT record to publish at _xprotocol.<dns_name>',
    );
  }
  const port = discovery.well_known_port;
  const host = _str(discovery.well_known_host);
  if (port === undefined) {
    if (host !== undefined) {
      c.warn(
        'IGNORED_KEY',
        ['discovery', 'well_known_host'],
        'ignored: discovery is served only when well_known_port is set',
        'key',
      );
    }
    return;
  }
  if (host !== undefined && _isPublicHost(host)) {
    c.warn(
      'PUBLIC_BIND',
      ['discovery', 'well_known_host'],
      `${host} listens on every network interface: discovery is reachable from other machines`,
    );
  }
  const transport = _str(server?.transport);
  if (server !== undefined && transport !== 'stdio') {
    const serverPort = server.port ?? server.sse_port ?? 8767;
    if (serverPort === port) {
      c.error(
        ['discovery', 'well_known_port'],
        `port ${String(port)} is already used by the MCP face (mcp_server.port)`,
      );
    }
  }
}

function _logging(c: _Collector, logging: Obj | undefined, server: Obj | undefined): void {
  if (logging?.output === 'stdout' && _str(server?.transport) === 'stdio') {
    c.error(
      ['logging', 'output'],
      'expected "stderr" or a file path, got "stdout": mcp_server.transport is "stdio", so stdout carries the MCP protocol',
    );
  }
}

/**
 * Warnings about who may call the mcp_sources over XProtocol. They are about XProtocol callers
 * only: when the face serves the mcp_sources too (`onFace`), the message says access does not
 * govern it.
 */
function _access(c: _Collector, root: Obj, mcpSourceCount: number, onFace: boolean): void {
  const access = _obj(root.access);
  const notTheFace = onFace ? '; the MCP face is not governed by access' : '';
  if (access === undefined) {
    if (mcpSourceCount > 0) {
      c.warn(
        'ACCESS_NO_GRANTS',
        ['access'],
        `no access section: every call XProtocol clients make to the mcp_sources is refused with AUTHORIZATION_INSUFFICIENT until access.grants give keys capabilities (access.default is "deny")${notTheFace}`,
      );
    }
    return;
  }
  if (access.default === 'allow') {
    c.warn(
      'ACCESS_ALLOW_ALL',
      ['access', 'default'],
      '"allow": any key may call every tool of the mcp_sources',
    );
  } else if (_list(access.grants).length === 0 && mcpSourceCount > 0) {
    c.warn(
      'ACCESS_NO_GRANTS',
      ['access'],
      `no access.grants: every call XProtocol clients make to the mcp_sources is refused with AUTHORIZATION_INSUFFICIENT (access.default is "deny")${notTheFace}`,
      'key',
    );
  }
  const required = _requiredCapabilities([..._list(root.mcp_sources), ..._list(root.openapi_sources)]);
  _list(access.grants).forEach((g, i) => {
    _list(_obj(g)?.capabilities).forEach((cap, j) => {
      if (cap === '*') {
        c.warn(
          'WILDCARD_GRANT',
          ['access', 'grants', i, 'capabilities', j],
          '"*" grants every capability, on every source',
        );
      } else if (
        typeof cap === 'string' &&
        required !== undefined &&
        required.length > 0 &&
        !required.some((r) => capabilityMatches(cap, r))
      ) {
        c.warn(
          'GRANT_MATCHES_NOTHING',
          ['access', 'grants', i, 'capabilities', j],
          `${JSON.stringify(cap)} matches no capability a tool or MCP request of the mcp_sources can require (${_preview(required)})`,
        );
      }
    });
  });
  _trustedIssuers(c, access);
}

/**
 * A trusted issuer holds here only what its own grant gives it, and its chains no more (docs/config.md,
 * `access`): one without a grant makes every chain it issues give nothing.
 */
function _trustedIssuers(c: _Collector, access: Obj): void {
  if (access.default === 'allow') return;
  const granted = new Set(_list(access.grants).map((g) => _str(_obj(g)?.key)));
  _list(access.trusted_issuers).forEach((key, i) => {
    if (typeof key === 'string' && !granted.has(key)) {
      c.warn(
        'TRUSTED_ISSUER_WITHOUT_GRANT',
        ['access', 'trusted_issuers', i],
        `${key} has no grant in access.grants: the delegation chains it issues give nothing here (a chain holds what both it and its root's grant cover)`,
      );
    }
  });
}

/**
 * Every capability a tool of the sources can require: `{namespace}.{class}` under `auto`, the
 * listed ones under `explicit`, and each `required_capability` override. `undefined` when a
 * source is malformed (its shape problem is reported instead).
 */
function _requiredCapabilities(sources: readonly unknown[]): string[] | undefined {
  const out = new Set<string>();
  for (const item of sources) {
    const src = _obj(item);
    const ns = _str(src?.xprotocol_namespace);
    if (src === undefined || ns === undefined) return undefined;
    if ((_str(src.capability_inference) ?? 'auto') === 'explicit') {
      for (const cap of _list(src.capabilities)) if (typeof cap === 'string') out.add(cap);
    } else {
      for (const cls of CAPABILITY_CLASSES) out.add(`${ns}.${cls}`);
    }
    // Resources, prompts and completions over XProtocol (docs/protocol.md §10.4).
    for (const cap of MCP_CAPABILITIES) out.add(`${ns}.${cap}`);
    for (const o of Object.values(_obj(src.schema_overrides) ?? {})) {
      const cap = _str(_obj(o)?.required_capability);
      if (cap !== undefined) out.add(cap);
    }
  }
  return [...out].sort();
}

function _preview(caps: readonly string[]): string {
  const shown = caps.slice(0, 4).join(', ');
  return caps.length > 4 ? `${shown}, … ${caps.length - 4} more` : shown;
}
