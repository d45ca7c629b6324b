/**
 * docs/config.md stays true: each example marked `<!-- config-example: FILE -->` is exactly the
 * fixture of that name, and every fixture loads (with the warnings the page promises).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { _logMode } from '../src/runtime/adapter-mode.js';
import type { AdapterLogger } from '../src/runtime/logger.js';
import { KEY_A, KEY_B } from './config-helpers.js';

const DOC = readFileSync(new URL('../../../docs/config.md', import.meta.url), 'utf8');
const fixture = (name: string) => readFileSync(new URL(`fixtures/config/${name}`, import.meta.url), 'utf8');

function examples(): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of DOC.matchAll(/<!-- config-example: (\S+) -->\n```yaml\n([\s\S]*?)```/g))
    out.set(m[1]!, m[2]!);
  return out;
}

describe('docs/config.md examples', () => {
  it('names the four example files', () => {
    expect([...examples().keys()]).toEqual([
      'seed-3.2-minimal.yml',
      'local-server.yml',
      'local-client.yml',
      'gateway.yml',
    ]);
  });
  it.each(['seed-3.2-minimal.yml', 'local-server.yml', 'local-client.yml', 'gateway.yml'])(
    '%s is the fixture, verbatim',
    (name) => {
      expect(examples().get(name)?.trimEnd()).toBe(fixture(name).trimEnd());
    },
  );
  it('the minimal file loads with the one warning about access', () => {
    const { warnings } = parseConfig(fixture('seed-3.2-minimal.yml'), 'adapter.yml', {
      env: {},
      homeDir: '/h',
    });
    expect(warnings.map((w) => `${w.code} ${w.path}`)).toEqual(['ACCESS_NO_GRANTS access']);
  });
  it('the local pair loads without a warning', () => {
    const env = { CLIENT_KEY: KEY_A, FS_ADAPTER_KEY: KEY_B };
    const server = parseConfig(fixture('local-server.yml'), 'b.yml', { env, homeDir: '/home/ada' });
    expect(server.warnings).toEqual([]);
    expect(server.config.mcpSources[0]).toMatchObject({
      namespace: 'com.test.fs',
      command: ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
    });
    expect(server.config.access.grants).toEqual([{ key: KEY_A, capabilities: ['com.test.fs.read'] }]);
    expect(server.config.relay.urls).toEqual(['ws://127.0.0.1:8765']);
    expect(server.config.discovery).toEqual({
      wellKnownPort: 8766,
      wellKnownHost: '127.0.0.1',
      publishDns: false,
      dnsServers: [],
    });
    const client = parseConfig(fixture('local-client.yml'), 'a.yml', { env, homeDir: '/home/ada' });
    expect(client.warnings).toEqual([]);
    expect(client.config.xprotocolSources[0]).toMatchObject({ key: KEY_B, relays: ['ws://127.0.0.1:8765'] });
    expect(client.config.mcpServer?.transport).toBe('stdio');
  });
  it('the pure MCP gateway loads without a warning: no relay, no identity, its mcp_sources on the face', () => {
    const { config, warnings } = parseConfig(fixture('gateway.yml'), 'gateway.yml', {
      env: { XP_GATEWAY_TOKEN: 'secret' },
      homeDir: '/home/ada',
    });
    expect(warnings).toEqual([]);
    expect(config.mode).toBe('mcp_gateway');
    expect(config.identity.keyFile).toBeUndefined();
    expect(config.mcpServer).toMatchObject({
      expose: ['mcp_sources'],
      host: '127.0.0.1',
      bearerToken: 'secret',
    });
  });
  it('the mode line quoted on the page is the one the runtime logs for it', () => {
    const { config } = parseConfig(fixture('gateway.yml'), 'gateway.yml', {
      env: { XP_GATEWAY_TOKEN: 'secret' },
      homeDir: '/home/ada',
    });
    const lines: string[] = [];
    const logger = { info: (_fields: unknown, message: string) => lines.push(message) };
    _logMode(config, [], logger as unknown as AdapterLogger);
    expect(lines).toHaveLength(1);
    expect(DOC.replace(/\s+/g, ' ')).toContain(`\`${lines[0]}\``);
  });
  it('the §3.1 messages quoted on the page are the ones the loader gives', () => {
    const text = readFileSync(new URL('fixtures/config/seed-3.1-full.yml', import.meta.url), 'utf8');
    let message = '';
    try {
      parseConfig(text, 'xprotocol-mcp-adapter.yml', { env: {}, homeDir: '/h' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toBe('');
    expect(DOC).toContain(`\`\`\`\n${message}\n\`\`\``);
  });
});
