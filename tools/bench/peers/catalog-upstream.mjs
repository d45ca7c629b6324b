// The memory suite's upstream: one process serving many MCP servers' tool catalogs over
// Streamable HTTP (JSON responses, stateless). `/c/<i>/mcp` answers with the `tools/list` of
// catalog i, taken from the repository's recorded tools/list answers of real MCP servers
// (testdata/mcp-servers, cycled when more catalogs are asked for than files exist). A
// `tools/call` of any listed tool answers one text block.
// Usage: node catalog-upstream.mjs <count>  → prints http://127.0.0.1:<port> on stdout.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '..', '..', '..', 'testdata', 'mcp-servers');
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .sort();
const count = Number(process.argv[2] ?? files.length);
const catalogs = Array.from({ length: count }, (_, i) => {
  const recorded = JSON.parse(readFileSync(join(dir, files[i % files.length]), 'utf8'));
  return { name: recorded.server.slug, tools: recorded.tools };
});

function answer(catalog, message) {
  switch (message.method) {
    case 'initialize':
      return {
        protocolVersion: message.params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: `stub-${catalog.name}`, version: '0.0.0' },
      };
    case 'ping':
      return {};
    case 'tools/list':
      return { tools: catalog.tools };
    case 'tools/call':
      return { content: [{ type: 'text', text: `called ${message.params?.name}` }] };
    default:
      return undefined;
  }
}

const server = createServer((request, response) => {
  const match = /^\/c\/(\d+)\/mcp$/.exec(request.url ?? '');
  const catalog = match ? catalogs[Number(match[1])] : undefined;
  if (!catalog) {
    response.writeHead(404).end();
    return;
  }
  if (request.method !== 'POST') {
    response.writeHead(request.method === 'DELETE' ? 200 : 405, { allow: 'POST' }).end();
    return;
  }
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (message.id === undefined) {
      response.writeHead(202).end();
      return;
    }
    const result = answer(catalog, message);
    const body =
      result === undefined
        ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `no method ${message.method}` } }
        : { jsonrpc: '2.0', id: message.id, result };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
});
server.listen(0, '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => process.exit(0));
