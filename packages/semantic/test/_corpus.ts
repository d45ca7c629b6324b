// Test helpers: the real MCP tool dumps of /work/shared/data/mcp-servers (see its SOURCES.md).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SERVERS_DIR = '/work/shared/data/mcp-servers';
export const RETRIEVAL_DIR = '/work/shared/data/retrieval';

export interface DumpTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
}

export interface ServerDump {
  file: string;
  slug: string;
  tools: DumpTool[];
}

/** Every server dump, sorted by file name. */
export function loadServers(): ServerDump[] {
  return readdirSync(SERVERS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const dump = JSON.parse(readFileSync(join(SERVERS_DIR, file), 'utf8')) as {
        server?: { slug?: string };
        tools: DumpTool[];
      };
      return { file, slug: dump.server?.slug ?? file.replace(/\.json$/, ''), tools: dump.tools };
    });
}

/** A namespace for a server slug: `com.example.<slug with non-word characters as _>`. */
export function namespaceOf(slug: string): string {
  return `com.example.${slug.replace(/[^A-Za-z0-9]+/g, '_')}`;
}

export interface RetrievalSet {
  corpus: { id: string; name: string; description: string; params: unknown }[];
  queries: { id: string; text: string; gold: string[] }[];
}

export function loadRetrieval(file: string): RetrievalSet {
  return JSON.parse(readFileSync(join(RETRIEVAL_DIR, file), 'utf8')) as RetrievalSet;
}
