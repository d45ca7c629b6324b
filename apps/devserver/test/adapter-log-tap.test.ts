// tapAdapterLogger: the listener sees every record the adapter logs, even below the logger's level,
// and the logger itself still writes (and filters) as configured.
import { createLogger } from '@xprotocol/mcp-adapter';
import { describe, expect, it } from 'vitest';
import { type AdapterLogRecord, tapAdapterLogger } from '../src/adapter-log-tap.js';

describe('tapAdapterLogger', () => {
  it('hands each record to the listener whatever the level, and the logger still filters its output', () => {
    const written: string[] = [];
    const logger = createLogger(
      { level: 'warn', format: 'json', output: 'stderr' },
      { stderr: { write: (line: string) => written.push(line) } },
    );
    const seen: AdapterLogRecord[] = [];
    const tapped = tapAdapterLogger(logger, (record) => seen.push(record));
    tapped.info({ id: 'a'.repeat(64), code: 'SCHEMA_VIOLATION' }, '/: missing required property "path"');
    tapped.warn({ source: 'fs' }, 'cannot reach MCP source');
    expect(seen).toEqual([
      {
        level: 'info',
        fields: { id: 'a'.repeat(64), code: 'SCHEMA_VIOLATION' },
        message: '/: missing required property "path"',
      },
      { level: 'warn', fields: { source: 'fs' }, message: 'cannot reach MCP source' },
    ]);
    expect(written.join('')).toContain('cannot reach MCP source');
    expect(written.join('')).not.toContain('missing required property');
    expect(tapped.level).toBe('warn');
  });

  it('a listener that throws never breaks the logging', () => {
    const logger = createLogger(
      { level: 'info', format: 'json', output: 'stderr' },
      { stderr: { write: () => {} } },
    );
    const tapped = tapAdapterLogger(logger, () => {
      throw new Error('boom');
    });
    expect(() => tapped.info({}, 'still fine')).not.toThrow();
  });
});
