// The state tables that are not the call journal (assigned tool names, schema versions, tool pins
// and approvals, upstream grants, revocations): the same behaviour on a state file and on a
// Postgres state database (a real server, started by the test), and on Postgres shared by every
// process that opens the same key, apart for another key.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Revocation } from '@xprotocol/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StateDatabase } from '../src/state/state-database.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';

let postgres: TestPostgres | undefined;
let postgresUrl = '';
const dir = mkdtempSync(join(tmpdir(), 'xp-state-tables-'));
beforeAll(async () => {
  postgres = await startPostgres();
  postgresUrl = await postgres.createDatabase();
}, 120_000);
afterAll(async () => {
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let opened = 0;
/** Two handles on one store (two processes of one key), and one on another key's. */
const stores = {
  sqlite: () => {
    const file = join(dir, `state-${++opened}.db`);
    return {
      a: new StateDatabase(file),
      b: () => new StateDatabase(file),
      other: new StateDatabase(join(dir, `other-${opened}.db`)),
    };
  },
  postgres: () => {
    const key = `key-${++opened}`;
    return {
      a: StateDatabase.openPostgres(postgresUrl, key),
      b: () => StateDatabase.openPostgres(postgresUrl, key),
      other: StateDatabase.openPostgres(postgresUrl, `other-${opened}`),
    };
  },
};

const definition = (description: string) => ({ name: 'add', description, inputSchema: { type: 'object' } });

describe.each(Object.entries(stores))('state tables on %s', (_name, open) => {
  it('keeps assigned names, schema versions, grants and revocations, seen by a second process', async () => {
    const { a, b, other } = open();
    a.save('fs', 'com.fs.read', 'read_file');
    a.save('fs', 'com.fs.read', 'fs_read_file');
    a.save('fs', 'com.fs.list', 'list');
    a.saveSchemaVersion('com.fs.read', '1.0.0', '{"a":1}');
    a.saveSchemaVersion('com.fs.read', '1.1.0', '{"a":2}');
    a.saveUpstreamGrant('fs', 'sealed-1');
    a.saveUpstreamGrant('fs', 'sealed-2');
    const revocation = { id: 'r1', kind: 'xp.revocation' } as unknown as Revocation;
    a.saveRevocation(revocation, 1000);
    a.saveRevocation(revocation, 2000);
    const second = b();
    try {
      expect([...second.load('fs')].sort()).toEqual([
        ['com.fs.list', 'list'],
        ['com.fs.read', 'fs_read_file'],
      ]);
      expect(second.schemaVersion('com.fs.read')).toEqual({ version: '1.1.0', contractJson: '{"a":2}' });
      expect(second.schemaVersion('com.fs.none')).toBeUndefined();
      expect(second.upstreamGrant('fs')).toBe('sealed-2');
      expect(second.revocations()).toEqual([revocation]);
      expect(other.load('fs').size).toBe(0);
      expect(other.upstreamGrant('fs')).toBeUndefined();
    } finally {
      await Promise.all([a.close(), second.close(), other.close()]);
    }
  });

  it('pins, holds a change, and approves all reviewed tools or none', async () => {
    const { a, b, other } = open();
    a.pinTool('fs', 'add', 'h1', definition('one'));
    a.pinTool('fs', 'sub', 's1', definition('sub'));
    a.holdTool('fs', 'add', 'h2', definition('two'), [], 5_000_000_000_000);
    a.holdTool('fs', 'sub', 's2', definition('sub two'), [], 5_000_000_000_000);
    const second = b();
    try {
      const held = second.toolPins('fs').get('add');
      expect(held).toMatchObject({ hash: 'h1', definition: definition('one') });
      expect(held?.pending).toEqual({ hash: 'h2', definition: definition('two'), findings: [], since: 5e12 });
      // One reviewed hash no longer waits: nothing is approved, and what waits is said.
      expect(
        second.approveTools('fs', [
          { tool: 'add', hash: 'h2' },
          { tool: 'sub', hash: 's-old' },
        ]),
      ).toEqual({ ok: false, tool: 'sub', waiting: 's2' });
      expect(a.toolPins('fs').get('add')?.hash).toBe('h1');
      expect(
        second.approveTools('fs', [
          { tool: 'add', hash: 'h2' },
          { tool: 'sub', hash: 's2' },
        ]),
      ).toEqual({ ok: true });
      const pins = a.toolPins('fs');
      expect(pins.get('add')).toMatchObject({
        hash: 'h2',
        definition: definition('two'),
        pending: undefined,
      });
      expect(pins.get('sub')).toMatchObject({ hash: 's2', pending: undefined });
      expect(other.toolPins('fs').size).toBe(0);
    } finally {
      await Promise.all([a.close(), second.close(), other.close()]);
    }
  });
});

describe('a Postgres state database', () => {
  it('refuses a location that is not a postgres:// URL, and never shows the password', async () => {
    expect(() => StateDatabase.openPostgres('mysql://u:p@h/d', 'k')).toThrow(
      /postgres:\/\/user:password@host/,
    );
    const state = StateDatabase.openPostgres(postgresUrl, 'shown');
    try {
      expect(state.path).not.toContain(postgres!.password);
      expect(state.path).toContain(':***@');
    } finally {
      await state.close();
    }
  });

  it('fails with a clear error when the database cannot be reached', () => {
    const url = postgresUrl.replace(/:(\d+)\//, ':1/');
    expect(() => StateDatabase.openPostgres(url, 'k')).toThrow(/state database postgres:\/\/.*:\*\*\*@/);
  });
});
