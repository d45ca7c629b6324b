/**
 * MCP clients as race peers: one SDK client per target (the same client code for the baseline and
 * every subject), calling one tool with fixed arguments.
 * @module
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Peer } from './race.js';

/** A connected client and the tool it calls. */
export interface McpTarget {
  readonly client: Client;
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
}

function _client(name: string): Client {
  return new Client({ name: `bench-${name}`, version: '0.0.0' }, { capabilities: {} });
}

/**
 * An SDK client over Streamable HTTP, sending `headers` with every request (a bearer token);
 * retries the connect until `timeoutMs` (a peer still starting).
 */
export async function httpClient(
  name: string,
  url: string,
  timeoutMs = 30_000,
  headers: Record<string, string> = {},
): Promise<Client> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = _client(name);
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      return client;
    } catch (error) {
      await client.close().catch(() => {});
      if (Date.now() > deadline)
        throw new Error(`${name}: cannot connect to ${url}: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** An SDK client that launches `node <script> …args` and talks to it over stdio. */
export async function stdioClient(
  name: string,
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<Client> {
  const client = _client(name);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [script, ...args],
      env: { PATH: process.env.PATH ?? '', ...env },
      stderr: 'ignore',
    }),
  );
  return client;
}

/**
 * The listed name of the tool whose name ends with `suffix` (a gateway may prefix it); polls,
 * since a gateway lists a source's tools once its catalog arrived.
 */
export async function findTool(client: Client, suffix: string, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { tools } = await client.listTools();
    const found = tools.find((tool) => tool.name === suffix || tool.name.endsWith(`_${suffix}`));
    if (found) return found.name;
    if (Date.now() > deadline) {
      throw new Error(
        `expected a tool named …${suffix}, received ${JSON.stringify(tools.map((tool) => tool.name))}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A race peer calling `target.tool`; an `isError` result fails the race. */
export function toolPeer(name: string, target: McpTarget): Peer {
  return {
    name,
    call: async () => {
      const result = await target.client.callTool(
        { name: target.tool, arguments: target.arguments },
        { timeout: 60_000 },
      );
      if (result.isError)
        throw new Error(`${name}: tools/call ${target.tool} failed: ${JSON.stringify(result)}`);
    },
  };
}
