// `admin`, `audit` and `tracing` (docs/config.md, docs/operating.md): off when absent, the admin listener on
// loopback unless allow_remote (which needs a token), the token read from the environment, the
// audit log's path resolved like every path, its defaults filled in.
import { describe, expect, it } from 'vitest';
import { base, load, OPTIONS, problems } from './config-helpers.js';

describe('admin and audit', () => {
  it('are off when absent', () => {
    const { config } = load(base());
    expect(config.admin).toBeUndefined();
    expect(config.audit).toBeUndefined();
  });

  it('binds loopback by default and reads the token from token_env', () => {
    const { config } = load(base('admin:', '  port: 9464', '  token_env: XP_ADMIN'), {
      ...OPTIONS,
      env: { XP_ADMIN: 's3cret' },
    });
    expect(config.admin).toEqual({ host: '127.0.0.1', port: 9464, token: 's3cret' });
  });

  it('refuses a bind address other than loopback without allow_remote', () => {
    expect(problems(base('admin:', '  port: 9464', '  host: 0.0.0.0')).join('\n')).toMatch(
      /admin\.host.*0\.0\.0\.0 is not a loopback address.*admin\.allow_remote/s,
    );
  });

  it('refuses allow_remote without a token, and a token_env that is not set', () => {
    expect(
      problems(base('admin:', '  port: 9464', '  host: 0.0.0.0', '  allow_remote: true')).join('\n'),
    ).toMatch(/allow_remote needs admin\.token_env/);
    expect(problems(base('admin:', '  port: 9464', '  token_env: XP_ADMIN')).join('\n')).toMatch(
      /environment variable XP_ADMIN is not set: it must hold the admin bearer token/,
    );
  });

  it('accepts a remote bind with allow_remote and a token', () => {
    const { config } = load(
      base('admin:', '  port: 9464', '  host: 0.0.0.0', '  allow_remote: true', '  token_env: XP_ADMIN'),
      { ...OPTIONS, env: { XP_ADMIN: 's3cret' } },
    );
    expect(config.admin?.host).toBe('0.0.0.0');
  });

  it('resolves the audit path against the config folder and fills its defaults', () => {
    const { config } = load(base('audit:', '  path: ./audit.log'));
    expect(config.audit).toEqual({
      path: expect.stringMatching(/\/audit\.log$/),
      maxBytes: 104857600,
      keep: 5,
      includeArguments: false,
    });
    expect(problems(base('audit:', '  path: ./a.log', '  keep: 0')).join('\n')).toMatch(
      /audit\.keep.*expected an integer from 1 to 1000/s,
    );
  });
});

describe('tracing', () => {
  it('is off when absent, and names the collector and the service when set', () => {
    expect(load(base()).config.tracing).toBeUndefined();
    const { config } = load(base('tracing:', '  endpoint: http://127.0.0.1:4318/v1/traces'));
    expect(config.tracing).toEqual({
      url: 'http://127.0.0.1:4318/v1/traces',
      serviceName: 'xprotocol-adapter',
    });
  });

  it('refuses a collector off loopback without allow_remote, and over http:// with it', () => {
    expect(
      problems(base('tracing:', '  endpoint: http://collector.example:4318/v1/traces')).join('\n'),
    ).toMatch(/tracing\.endpoint.*collector\.example is not a loopback address.*tracing\.allow_remote/s);
    expect(
      problems(
        base('tracing:', '  endpoint: http://collector.example:4318/v1/traces', '  allow_remote: true'),
      ).join('\n'),
    ).toMatch(/tracing\.endpoint.*expected an https:\/\/ URL for a collector on another machine/s);
    const { config } = load(
      base('tracing:', '  endpoint: https://collector.example/v1/traces', '  allow_remote: true'),
    );
    expect(config.tracing?.url).toBe('https://collector.example/v1/traces');
  });

  it('refuses an endpoint that is no http(s) URL, or carries a user', () => {
    expect(problems(base('tracing:', '  endpoint: ftp://127.0.0.1/x')).join('\n')).toMatch(
      /tracing\.endpoint.*expected an http:\/\/ or https:\/\/ URL without a user or password/s,
    );
    expect(problems(base('tracing:', '  endpoint: http://u:p@127.0.0.1/x')).join('\n')).toMatch(
      /tracing\.endpoint.*without a user or password/s,
    );
  });
});
