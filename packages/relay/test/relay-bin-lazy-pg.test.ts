// The one-command path stays light: a relay on memory or on a SQLite file never loads the Postgres
// client (`pg`). The bin runs with a module hook that fails any resolution of `pg`; the same hook
// stops a relay given a postgres:// URL, so the check is known to catch a load.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeEvent, newSecret, TestClient } from './support/client.js';
import { killBins, runBin, startBin, stopBin } from './support/relay-bin.js';

const HOOK = `export async function resolve(specifier, context, next) {
  if (specifier === 'pg') throw new Error('the pg module was loaded');
  return next(specifier, context);
}`;
const REGISTER = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)});`;
/** Node's arguments that install the hook before the bin runs. */
const REFUSE_PG = ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'xp-relay-lazy-pg-'));
  return () => rmSync(dir, { recursive: true, force: true });
});
afterEach(killBins);

describe('xprotocol-relay without a database URL', () => {
  it('serves from memory and from a SQLite file without loading pg', async () => {
    for (const args of [[], ['--db', join(dir, 'events.db')]]) {
      const relay = await startBin(['--port', '0', ...args], REFUSE_PG);
      const client = await TestClient.connect(relay.url);
      expect((await client.publish(makeEvent(newSecret())))[2]).toBe(true);
      client.close();
      expect(await stopBin(relay)).toBe(0);
      expect(relay.stderr.join('')).not.toContain('pg module');
    }
  });

  it('loads pg for a postgres:// URL (the hook above catches it)', async () => {
    const { code, stderr } = await runBin(
      ['--port', '0', '--db', 'postgres://relay@127.0.0.1:1/x'],
      REFUSE_PG,
    );
    expect(code).toBe(1);
    expect(stderr).toContain('the pg module was loaded');
  });
});
