/**
 * What a `tools/list` answer costs a model, in bytes of JSON and in tokens (`o200k_base`, through
 * the `gpt-tokenizer` package), for every recorded real MCP server (testdata/mcp-servers) and for
 * one face over all of their catalogs together, in each listing mode of the face
 * (src/face/listing-modes.ts). The table of docs/performance.md, "What a tool list costs", is
 * this module's {@link footprintTable}; `pnpm --filter @xprotocol/mcp-bridge footprint` writes it.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpToolDefinition } from '@xprotocol/translate';
import { countTokens } from 'gpt-tokenizer';
import { _listing, type ListingMode } from '../../src/face/listing-modes.js';
import { _searchToolDefinition, SEARCH_TOOL } from '../../src/face/search-tool.js';

const SERVERS = join(import.meta.dirname, '..', '..', '..', '..', 'testdata', 'mcp-servers');
export const MODES: readonly ListingMode[] = ['full', 'compact', 'search'];
/** The name of the row of one face over every recorded catalog. */
export const ALL = 'all 27 servers behind one face';

/** The recorded servers' tool lists, by file name, in file order. */
export function recordedTools(): { server: string; tools: McpToolDefinition[] }[] {
  return readdirSync(SERVERS)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({
      server: file.replace(/\.json$/, ''),
      tools: (JSON.parse(readFileSync(join(SERVERS, file), 'utf8')) as { tools: McpToolDefinition[] }).tools,
    }));
}

/** The `tools/list` result the face gives for `tools` in `mode` (a fresh session: nothing used yet). */
export function listed(tools: readonly McpToolDefinition[], mode: ListingMode): McpToolDefinition[] {
  const withSearch = [...tools, _searchToolDefinition(tools.length)];
  return _listing(withSearch, mode, new Set(), (name) => name === SEARCH_TOOL);
}

/** One row: a server (or {@link ALL}), a mode, and what its listing costs. */
export interface FootprintRow {
  server: string;
  mode: ListingMode;
  bytes: number;
  tokens: number;
}

/** Every server in every mode, then the face over all of them. */
export function footprint(): FootprintRow[] {
  const servers = recordedTools();
  const all = servers.flatMap((s) => s.tools);
  return [...servers, { server: ALL, tools: all }].flatMap(({ server, tools }) =>
    MODES.map((mode) => {
      const json = JSON.stringify({ tools: listed(tools, mode) });
      return { server, mode, bytes: Buffer.byteLength(json), tokens: countTokens(json) };
    }),
  );
}

/** The markdown table: one line per server, bytes and tokens per mode. */
export function footprintTable(rows: readonly FootprintRow[]): string {
  const servers = [...new Set(rows.map((r) => r.server))];
  const cell = (server: string, mode: ListingMode) => {
    const row = rows.find((r) => r.server === server && r.mode === mode)!;
    return `${row.bytes.toLocaleString('en-US')} B / ${row.tokens.toLocaleString('en-US')} tok`;
  };
  const lines = servers.map(
    (server) =>
      `| ${server === ALL ? `**${ALL}**` : `\`${server}\``} | ${MODES.map((m) => cell(server, m)).join(' | ')} |`,
  );
  return ['| server | full | compact | search |', '|---|---|---|---|', ...lines].join('\n');
}
