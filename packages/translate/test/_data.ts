import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The recorded MCP servers vendored in testdata/mcp-servers at the repository root (source, licence
 * and sha256 of each in testdata/SOURCES.md); this file is packages/translate/test/_data.ts.
 */
export const SERVERS_DIR = join(import.meta.dirname, '../../../testdata/mcp-servers');

export interface RecordedServer {
  file: string;
  namespace: string;
  tools: unknown[];
  prompts: unknown[];
}

export function loadServers(): RecordedServer[] {
  return readdirSync(SERVERS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const data = JSON.parse(readFileSync(join(SERVERS_DIR, file), 'utf8')) as {
        tools: unknown[];
        prompts?: unknown[];
      };
      const slug = file.replace(/\.json$/, '').replace(/[^A-Za-z0-9_-]/g, '_');
      return { file, namespace: `com.test.${slug}`, tools: data.tools, prompts: data.prompts ?? [] };
    });
}
