// A slice of the conformance matrix (docs/conformance.md, "The conformance matrix"; the whole
// matrix is `pnpm --filter @xprotocol/mcp-adapter conformance:matrix`): servers the adapter was
// not written for, scored by the official runner (conformance@0.2.0-alpha.12, fetched by npx with
// Node 22) directly, through the gateway and across XProtocol. In every cell of the slice the
// gateway and XProtocol pass exactly the scenarios the server passes directly. The cells of the
// slice are the cheap ones that hold today; the others are in the docs table with their differences.
import { afterAll, describe, expect, it } from 'vitest';
import { differences, type MatrixRow, passed, runMatrix } from './support/conformance-matrix.js';
import { matrixDetails, matrixTable } from './support/conformance-table.js';

let rows: MatrixRow[] = [];
afterAll(() => {
  if (rows.length > 0) process.stderr.write(`${matrixTable(rows)}\n`);
});

describe('the conformance matrix, a slice: G = X = direct per scenario', () => {
  it('strict-sse-polling (2025-11-25) under --requirements 2025-11-25, the source’s mcp_revision auto (asks the server, falls back to 2025-11-25)', async () => {
    rows = await runMatrix(
      { servers: ['strict-sse-polling'], requirements: ['2025-11-25'], settings: ['auto'] },
      { concurrency: 3, runTimeoutMs: 240_000 },
    );
    expect(rows).toHaveLength(1);
    expect(matrixDetails(rows)).toBe('');
    for (const row of rows) {
      // The server passes something directly, so an adapter that passes nothing would differ.
      expect(passed(row.direct)).toContain('server-sse-polling');
      expect(differences(row.direct, row.gateway)).toEqual([]);
      expect(differences(row.direct, row.across)).toEqual([]);
      expect(passed(row.gateway)).toEqual(passed(row.direct));
      expect(passed(row.across)).toEqual(passed(row.direct));
    }
  }, 600_000);

  it('the SDK fixture (both revisions) under --requirements 2025-11-25, the source’s mcp_revision 2026-07-28: a 2025-11-25 client keeps logging/setLevel and resources/subscribe', async () => {
    const cell = await runMatrix(
      { servers: ['fixture'], requirements: ['2025-11-25'], settings: ['own'] },
      { concurrency: 3, runTimeoutMs: 300_000 },
    );
    rows = [...rows, ...cell];
    expect(cell).toHaveLength(1);
    expect(matrixDetails(cell)).toBe('');
    const row = cell[0]!;
    // What a 2026-07-28 link would lose (that revision removed them), passed directly.
    for (const scenario of ['logging-set-level', 'resources-subscribe', 'server-sse-polling'])
      expect(passed(row.direct)).toContain(scenario);
    expect(passed(row.gateway)).toEqual(passed(row.direct));
    expect(passed(row.across)).toEqual(passed(row.direct));
  }, 600_000);
});
