// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${NAME} text
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { interpolateEnv } from '../src/config/index.js';
import { base, load, problems, yaml } from './config-helpers.js';

describe('interpolateEnv', () => {
  const env = { HOME: '/home/ada', EMPTY: '', PORT: '9000' };
  it.each([
    ['plain text', 'no variables here', 'no variables here'],
    ['a variable', '${HOME}/data', '/home/ada/data'],
    ['two variables', '${HOME}:${PORT}', '/home/ada:9000'],
    ['a default for an unset variable', '${NOPE:-fallback}', 'fallback'],
    ['a default for an empty variable', '${EMPTY:-fallback}', 'fallback'],
    ['a default that is not used', '${PORT:-1}', '9000'],
    ['an empty default', '[${NOPE:-}]', '[]'],
    ['a set but empty variable', '[${EMPTY}]', '[]'],
    ['the $${ escape', '$${HOME} is literal', '${HOME} is literal'],
    ['a lone $', 'cost: $5 and $HOME', 'cost: $5 and $HOME'],
    ['a default with spaces and colons', '${NOPE:-a b:c}', 'a b:c'],
  ])('%s', (_id, text, expected) => {
    const result = interpolateEnv(text, env);
    expect(result).toMatchObject({ ok: true, value: expected });
  });
  it('names a missing variable', () => {
    expect(interpolateEnv('${TOKEN}', env)).toEqual({
      ok: false,
      reason: 'environment variable TOKEN is not set (use ${TOKEN:-default} to give a default)',
      missing: ['TOKEN'],
    });
    expect(interpolateEnv('${A}${B}${A}', env)).toEqual({
      ok: false,
      reason: 'environment variables A, B are not set',
      missing: ['A', 'B'],
    });
  });
  it('refuses malformed expressions', () => {
    expect(interpolateEnv('x ${HOME', env)).toMatchObject({
      ok: false,
      reason: 'unterminated "${" at character 3: expected ${NAME} or ${NAME:-default}',
    });
    expect(interpolateEnv('${1ABC}', env)).toMatchObject({
      ok: false,
      reason:
        'invalid expression "${1ABC}" at character 1: expected ${NAME} or ${NAME:-default}, NAME of [A-Za-z_][A-Za-z0-9_]* (write $${ for a literal "${")',
    });
    expect(interpolateEnv('${HOME:=x}', env)).toMatchObject({ ok: false });
  });
  it('lists the variables used', () => {
    expect(interpolateEnv('${HOME}${NOPE:-x}', env)).toEqual({
      ok: true,
      value: '/home/adax',
      variables: ['HOME', 'NOPE'],
    });
  });
});

describe('interpolateEnv properties', () => {
  it('leaves text without "${" unchanged', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        fc.pre(!text.includes('${'));
        expect(interpolateEnv(text, {})).toEqual({ ok: true, value: text, variables: [] });
      }),
      { numRuns: 300, seed: 21 },
    );
  });
  it('substitutes any value verbatim, and "$${" escapes any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 20 }), (value, text) => {
        expect(interpolateEnv('<${X}>', { X: value })).toEqual({
          ok: true,
          value: `<${value}>`,
          variables: ['X'],
        });
        fc.pre(!text.includes('$') && !text.includes('}'));
        expect(interpolateEnv(`$\${${text}}`, {})).toMatchObject({ ok: true, value: `\${${text}}` });
      }),
      { numRuns: 300, seed: 22 },
    );
  });
});

describe('interpolation in the configuration', () => {
  it('applies to every string value, not to keys', () => {
    const { config } = load(
      base(
        '    env:',
        '      DATA_DIR: ${DATA}',
        '      LITERAL: $${DATA}',
        'mcp_server:',
        '  transport: streamable_http',
        '  path: /${MCP_PATH:-mcp}',
      ),
      { env: { DATA: '/srv/data' }, homeDir: '/home/ada' },
    );
    expect(config.mcpSources[0]?.env).toEqual({ DATA_DIR: '/srv/data', LITERAL: '${DATA}' });
    expect(config.mcpServer?.path).toBe('/mcp');
  });
  it('reads an interpolated number or boolean where one is expected', () => {
    const { config, warnings } = load(
      base(
        'mcp_server:',
        '  transport: streamable_http',
        '  port: ${MCP_PORT}',
        'discovery:',
        '  publish_dns: ${DNS}',
        '  dns_name: acme.example',
      ),
      { env: { MCP_PORT: '9123', DNS: 'true' }, homeDir: '/h' },
    );
    expect(config.mcpServer?.port).toBe(9123);
    expect(config.discovery.publishDns).toBe(true);
    expect(warnings.map((w) => `${w.code} ${w.path}`)).toEqual(['FACE_EXPOSES_NOTHING mcp_server']);
  });
  it('still refuses an interpolated value that is not a number', () => {
    expect(
      problems(base('mcp_server:', '  transport: streamable_http', '  port: ${MCP_PORT}'), {
        env: { MCP_PORT: 'eighty' },
      }),
    ).toEqual(['config.yml:16:9 mcp_server.port: expected a port number from 1 to 65535, got "eighty"']);
  });
  it('names the missing variable and the path, and reports nothing else about that value', () => {
    expect(problems(yaml('identity:', '  key_file: ${KEY_DIR}/adapter.key'), { env: {} })).toEqual([
      'config.yml:2:13 identity.key_file: environment variable KEY_DIR is not set (use ${KEY_DIR:-default} to give a default)',
    ]);
  });
  it('interpolates before the command is split', () => {
    const { config } = load(base().replace('/tmp', '"${ROOT}" --flag'), {
      env: { ROOT: '/my files' },
      homeDir: '/h',
    });
    expect(config.mcpSources[0]?.command).toEqual([
      'npx',
      '-y',
      '@modelcontextprotocol/server-filesystem',
      '/my files',
      '--flag',
    ]);
  });
  it('uses process.env by default', () => {
    process.env.XP_CONFIG_TEST_NAME = 'from-process-env';
    try {
      const { config } = load(
        yaml('identity:', '  key_file: /k', '  display_name: ${XP_CONFIG_TEST_NAME}'),
        {},
      );
      expect(config.identity.displayName).toBe('from-process-env');
    } finally {
      delete process.env.XP_CONFIG_TEST_NAME;
    }
  });
});
