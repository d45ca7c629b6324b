/**
 * The relay-less MCP gateway as the loader sees it (docs/config.md, "A pure MCP gateway"): a file
 * with `mcp_server` and `mcp_sources` but no `relay` loads without an identity, exposes its
 * mcp_sources on the face, and warns only about what is true without an XProtocol endpoint; with a
 * relay, a face that would list nothing is named.
 */
import { describe, expect, it } from 'vitest';
import { formatConfigIssue } from '../src/config/index.js';
import { base, load, problems, yaml } from './config-helpers.js';

/** mcp_server and one stdio mcp_sources entry, nothing else: the user's gateway file. */
const GATEWAY = yaml(
  'mcp_sources:',
  '  - name: memory',
  '    transport: stdio',
  '    command: npx -y @modelcontextprotocol/server-memory',
  '    xprotocol_namespace: local.memory',
  'mcp_server:',
  '  transport: streamable_http',
  '  port: 8767',
);

const warnings = (text: string) => load(text).warnings.map(formatConfigIssue);

describe('a pure MCP gateway (mcp_server and mcp_sources, no relay)', () => {
  it('loads without identity, relay or access, with no warning, exposing the mcp_sources', () => {
    const { config, warnings } = load(GATEWAY);
    expect(warnings).toEqual([]);
    expect(config.mode).toBe('mcp_gateway');
    expect(config.identity.keyFile).toBeUndefined();
    expect(config.identity.displayName).toBe('XProtocol MCP Adapter');
    expect(config.relay.urls).toEqual([]);
    expect(config.mcpServer?.expose).toEqual(['mcp_sources']);
  });

  it('says what it ignores: the key file, access and discovery serve no XProtocol endpoint', () => {
    const text = yaml(
      'identity:',
      '  key_file: ./adapter.key',
      '  display_name: Team gateway',
      'access:',
      '  grants: []',
      'discovery:',
      '  well_known_port: 8766',
    );
    expect(warnings(`${text}${GATEWAY}`)).toEqual([
      'config.yml:2:3 identity.key_file: ignored: a pure MCP gateway (no relay.urls, no xprotocol_sources) signs nothing, so it loads no key',
      'config.yml:4:1 access: ignored: a pure MCP gateway has no XProtocol endpoint, and access governs XProtocol callers only (guard the MCP face with mcp_server.auth or oauth)',
      'config.yml:7:3 discovery.well_known_port: ignored: a pure MCP gateway has no XProtocol endpoint for discovery to describe',
    ]);
    expect(load(`${text}${GATEWAY}`).config.identity.displayName).toBe('Team gateway');
  });

  it('an explicit expose without mcp_sources leaves them unserved: a relay (and so an identity) is needed', () => {
    expect(problems(`${GATEWAY}  expose: [xprotocol_sources]\n`)).toEqual([
      'config.yml:1:1 identity: missing, expected a mapping with key_file (and display_name)',
      'config.yml:1:1 relay: missing, expected at least one ws:// or wss:// URL: mcp_sources are served to XProtocol clients through a relay, or on the MCP face when mcp_server.expose lists mcp_sources',
    ]);
  });

  it('without mcp_server the mcp_sources still need a relay, and the message says how else to serve them', () => {
    const text = GATEWAY.replace(/mcp_server:\n(.*\n){2}/, '');
    expect(problems(text)).toEqual([
      'config.yml:1:1 identity: missing, expected a mapping with key_file (and display_name)',
      'config.yml:1:1 relay: missing, expected at least one ws:// or wss:// URL: mcp_sources are served to XProtocol clients through a relay, or on the MCP face when mcp_server.expose lists mcp_sources',
    ]);
  });

  it('xprotocol_sources sign their calls: with them the identity is required again', () => {
    const text = `${GATEWAY}xprotocol_sources:\n  - name: weather\n    endpoint: xp://weather.example.com\n`;
    expect(problems(text)).toEqual([
      'config.yml:1:1 identity: missing, expected a mapping with key_file (and display_name)',
    ]);
  });
});

describe('an adapter with a relay', () => {
  it('is in xprotocol mode, and a face that lists no tool says what it serves and how to add the mcp_sources', () => {
    const text = base('mcp_server:', '  transport: streamable_http');
    expect(load(text).config.mode).toBe('xprotocol');
    expect(warnings(text)).toEqual([
      'config.yml:14:1 mcp_server: the MCP face lists only search_tools: it exposes xprotocol_sources (the default with a relay) and there are none; add expose: [mcp_sources] to serve the mcp_sources on the face too',
    ]);
    expect(warnings(`${text}  expose: [mcp_sources]\n`)).toEqual([]);
  });

  it('the access warning is about XProtocol callers, not the MCP face', () => {
    const text = base('mcp_server:', '  transport: streamable_http', '  expose: [mcp_sources]').replace(
      /access:\n(.*\n){3}/,
      '',
    );
    expect(warnings(text)).toEqual([
      'config.yml:1:1 access: no access section: every call XProtocol clients make to the mcp_sources is refused with AUTHORIZATION_INSUFFICIENT until access.grants give keys capabilities (access.default is "deny"); the MCP face is not governed by access',
    ]);
  });
});
