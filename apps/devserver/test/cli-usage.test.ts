// Usage and configuration errors of the built bin: exit codes, messages on stderr, nothing on stdout.
import { afterAll, describe, expect, it } from 'vitest';
import { Sandbox } from './support/children.js';

const sandbox = new Sandbox();
afterAll(() => sandbox.close());

describe('usage errors exit 2 with a message on stderr and nothing on stdout', () => {
  const cases: [string, string[], RegExp][] = [
    ['unknown flag', ['--bogus'], /unknown option '--bogus'/],
    ['two modes', ['--demo', '--mcp-proxy'], /expected at most one of .*, got --demo and --mcp-proxy/],
    [
      'port out of range',
      ['--demo', '--relay-port', '70000'],
      /expected a port number from 0 to 65535, got "70000"/,
    ],
    ['port not a number', ['--demo', '--relay-port', 'x'], /expected a port number from 0 to 65535, got "x"/],
    ['missing value', ['--config'], /argument missing/],
    [
      'namespace without --mcp-command',
      ['--demo', '--namespace', 'com.x'],
      /--namespace goes with --mcp-command/,
    ],
    ['--db with --demo', ['--demo', '--db', 'x.db'], /--db and --key do not apply/],
    ['unbalanced quote', ['--mcp-command', `node 'server.js`], /--mcp-command: unbalanced single quote/],
    ['empty command', ['--mcp-command', ' '], /--mcp-command: the command is empty/],
    [
      '--console-port with --demo',
      ['--demo', '--console-port', '0'],
      /--demo serves no web console: --console-port and --no-console do not apply/,
    ],
    ['--no-console with --mcp-proxy', ['--mcp-proxy', '--no-console'], /--mcp-proxy serves no web console/],
    [
      '--console-port with --no-console',
      ['--mcp-command', 'node x.js', '--console-port', '1', '--no-console'],
      /--console-port and --no-console contradict each other/,
    ],
    [
      'console port out of range',
      ['--demo', '--console-port', '-1'],
      /expected a port number from 0 to 65535/,
    ],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const { code, stdout, stderr } = await sandbox.run(args);
      expect(code, stderr).toBe(2);
      expect(stderr).toMatch(message);
      expect(stdout).toBe('');
    });
  }

  it('--help prints usage on stdout and exits 0', async () => {
    const { code, stdout } = await sandbox.run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--mcp-command <command>');
  });
});

describe('--config with a bad file exits 1 with the config error', () => {
  it('names the file, line, column and key, with the nearest key for a typo', async () => {
    const path = sandbox.file(
      'bad.yml',
      `identity:
  key_file: ./adapter.key
relay:
  urls: [ws://127.0.0.1:8765]
mcp_sources:
  - name: fs
    transport: tcp
    command: node server.js
    xprotocol_namespace: com.test.fs
`,
    );
    const { code, stdout, stderr } = await sandbox.run(['--config', path, '--relay-port', '0']);
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(
      /bad\.yml:7:16 mcp_sources\[0\]\.transport: expected "stdio" \| "sse" \| "streamable_http", got "tcp"/,
    );
    expect(stderr).toMatch(/1 problem in .*bad\.yml/);
    expect(stdout).toBe('');
  });

  it('a missing file', async () => {
    const { code, stdout, stderr } = await sandbox.run(['--config', sandbox.path('nope.yml')]);
    expect(code).toBe(1);
    expect(stderr).toContain('cannot read the configuration: no such file');
    expect(stdout).toBe('');
  });
});

describe('--mcp-proxy without a devserver key', () => {
  it('exits 1 saying which key file it needs', async () => {
    const { code, stdout, stderr } = await sandbox.run(['--mcp-proxy', '--key', sandbox.path('none.key')]);
    expect(code).toBe(1);
    expect(stderr).toContain(`cannot read the devserver's key file ${sandbox.path('none.key')}`);
    expect(stdout).toBe('');
  });
});
