/**
 * `shared_state` (docs/config.md): the Postgres database adapter replicas share. Its URL is
 * checked before anything connects, the lease has bounds, and the password never appears in an
 * error or in the copy of the configuration meant for logs.
 */
import { describe, expect, it } from 'vitest';
import { redactConfig } from '../src/config/index.js';
import { base, load, refusal } from './config-helpers.js';

const PASSWORD = 'pg-secret-93ad1c';

const shared = (...lines: string[]) => base('shared_state:', ...lines.map((line) => `  ${line}`));

describe('shared_state', () => {
  it('is absent by default: the call journal stays in the state database', () => {
    expect(load(base()).config.sharedState).toBeUndefined();
  });

  it('reads the URL and gives the lease its default of 15 s', () => {
    const { config } = load(shared(`database: postgres://adapter:${PASSWORD}@db.internal:5432/xp`));
    expect(config.sharedState).toEqual({
      database: `postgres://adapter:${PASSWORD}@db.internal:5432/xp`,
      leaseSeconds: 15,
    });
  });

  it('hides the password in the copy meant for logs', () => {
    const { config } = load(shared(`database: postgres://adapter:${PASSWORD}@db.internal:5432/xp`));
    expect(redactConfig(config).sharedState?.database).toBe('postgres://adapter:***@db.internal:5432/xp');
  });

  it('refuses a URL that is not Postgres, without showing it', () => {
    const error = refusal(shared(`database: mysql://adapter:${PASSWORD}@db.internal/xp`));
    expect(error.message).toMatch(
      /shared_state\.database: expected a postgres:\/\/user:password@host:port\/database URL/,
    );
    expect(JSON.stringify({ message: error.message, issues: error.issues })).not.toContain(PASSWORD);
  });

  it('refuses a lease outside 2 to 3600 seconds, and a missing database', () => {
    expect(refusal(shared('database: postgres://a:b@db/xp', 'lease_seconds: 1')).message).toMatch(
      /shared_state\.lease_seconds: expected an integer number of seconds from 2 to 3600/,
    );
    expect(refusal(shared('lease_seconds: 10')).message).toMatch(
      /shared_state: has no database and state_database is not a postgres:\/\/ URL/,
    );
  });
});

describe('state_database: postgres://…', () => {
  const url = `postgres://adapter:${PASSWORD}@db.internal:5432/xp`;
  const onPostgres = (...more: string[]) =>
    base(...[`state_database: ${url}`, ...more].filter((line) => line !== ''));

  it('is kept as the URL (no path expansion), and shares the journal with the default lease', () => {
    const { config } = load(onPostgres());
    expect(config.stateDatabase).toBe(url);
    expect(config.sharedState).toEqual({ database: url, leaseSeconds: 15 });
  });

  it('gives shared_state its database, so shared_state may say only the lease', () => {
    const { config } = load(onPostgres('shared_state:', '  lease_seconds: 5'));
    expect(config.sharedState).toEqual({ database: url, leaseSeconds: 5 });
  });

  it('hides the password in the copy meant for logs', () => {
    const redacted = redactConfig(load(onPostgres()).config);
    expect(redacted.stateDatabase).toBe('postgres://adapter:***@db.internal:5432/xp');
    expect(JSON.stringify(redacted)).not.toContain(PASSWORD);
  });
});
