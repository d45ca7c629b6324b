/**
 * The configuration keys of key delegation (docs/config.md): `identity.parent_delegation_event`
 * (the adapter's chain file, loaded at start) and `identity.parent_key` (the key that issued its
 * last link) are read without a "not implemented" warning, `parent_key` alone is refused, and
 * `xprotocol_sources[].trust_root` takes one key or a list of them.
 */
import { describe, expect, it } from 'vitest';
import { formatConfigIssue, parseConfig } from '../src/config/index.js';
import { base, KEY_A, KEY_B, load, problems, yaml } from './config-helpers.js';

/** `base()` with the identity lines `lines` after `key_file`. */
function withIdentity(...lines: string[]): string {
  return base().replace('  key_file: ./adapter.key', ['  key_file: ./adapter.key', ...lines].join('\n'));
}

/** A face over one XProtocol source whose entry ends with `lines`. */
function faceSource(...lines: string[]): string {
  return yaml(
    'identity:',
    '  key_file: ./adapter.key',
    'relay:',
    '  urls: [ws://127.0.0.1:8765]',
    'xprotocol_sources:',
    '  - name: docs',
    `    key: ${KEY_A}`,
    '    relay: ws://127.0.0.1:8765',
    ...lines,
    'mcp_server:',
    '  transport: stdio',
  );
}

describe('identity.parent_delegation_event and identity.parent_key', () => {
  it('are read, the path made absolute, without a "not implemented" warning', () => {
    const { config, warnings } = parseConfig(
      withIdentity(`  parent_key: ${KEY_B}`, '  parent_delegation_event: ./adapter.chain.json'),
      '/etc/xp/adapter.yml',
      { env: {}, homeDir: '/home/ada' },
    );
    expect(warnings.map(formatConfigIssue)).toEqual([]);
    expect(config.identity).toEqual({
      keyFile: '/etc/xp/adapter.key',
      displayName: 'XProtocol MCP Adapter',
      parentKey: KEY_B,
      parentDelegationEvent: '/etc/xp/adapter.chain.json',
    });
  });

  it('parent_delegation_event alone is enough', () => {
    const { config, warnings } = load(withIdentity('  parent_delegation_event: ~/chain.json'));
    expect(warnings).toEqual([]);
    expect(config.identity.parentDelegationEvent).toBe('/home/ada/chain.json');
    expect(config.identity.parentKey).toBeUndefined();
  });

  it('parent_key without parent_delegation_event is refused: there is nothing to check it against', () => {
    expect(problems(withIdentity(`  parent_key: ${KEY_B}`))).toEqual([
      'config.yml:3:3 identity.parent_key: set without identity.parent_delegation_event: expected the chain file (xprotocol-adapter register --output) whose last link parent_key issued',
    ]);
  });
});

describe('xprotocol_sources[].trust_root', () => {
  it('takes one key or a list, and is empty when absent', () => {
    expect(load(faceSource(`    trust_root: ${KEY_B}`)).config.xprotocolSources[0]?.trustRoots).toEqual([
      KEY_B,
    ]);
    expect(
      load(faceSource(`    trust_root: [${KEY_A}, ${KEY_B}]`)).config.xprotocolSources[0]?.trustRoots,
    ).toEqual([KEY_A, KEY_B]);
    expect(load(faceSource()).config.xprotocolSources[0]?.trustRoots).toEqual([]);
  });

  it('refuses a value that is not a key, and an empty list', () => {
    expect(problems(faceSource('    trust_root: ed25519:abc'))).toEqual([
      'config.yml:9:17 xprotocol_sources[0].trust_root: expected "ed25519:" followed by 64 lowercase hex digits, got "ed25519:abc"',
    ]);
    expect(problems(faceSource('    trust_root: []'))).toEqual([
      'config.yml:9:17 xprotocol_sources[0].trust_root: expected a non-empty list, got an empty list',
    ]);
    expect(problems(faceSource('    trust_root: 3'))).toEqual([
      'config.yml:9:17 xprotocol_sources[0].trust_root: expected "ed25519:" followed by 64 lowercase hex digits or a non-empty list of them, got 3',
    ]);
  });
});
