// The 672 dev MCP tools of testdata/mcp-servers as ToolDocuments, ids `<server file>/<tool>` (the
// ids of eval/*.json). The server's name, title, description and instructions come from the
// recorded initialize answer; the tool's title from `title` or `annotations.title`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVERS_DIR } from './_testdata.mjs';

/** Every dev tool, sorted by server file then tool order. */
export function mcpDocuments({ server = true } = {}) {
  const docs = [];
  for (const file of readdirSync(SERVERS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const dump = JSON.parse(readFileSync(join(SERVERS_DIR, file), 'utf8'));
    const slug = file.replace(/\.json$/, '');
    const info = dump.initialize?.serverInfo ?? {};
    const serverInfo = {
      name: info.name,
      title: info.title,
      description: info.description,
      instructions: dump.initialize?.instructions,
    };
    for (const tool of dump.tools) {
      docs.push({
        id: `${slug}/${tool.name}`,
        name: tool.name,
        title: tool.title ?? tool.annotations?.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        namespace: slug,
        ...(server ? { server: serverInfo } : {}),
      });
    }
  }
  return docs;
}
