// Test helpers: the real MCP tool dumps of testdata/mcp-servers and the MetaTool retrieval sets of
// testdata/retrieval (see testdata/SOURCES.md).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RETRIEVAL_DIR, readJsonFile, SERVERS_DIR } from '../scripts/_testdata.mjs';

export { RETRIEVAL_DIR, SERVERS_DIR };

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
  return readJsonFile(join(RETRIEVAL_DIR, file)) as RetrievalSet;
}
