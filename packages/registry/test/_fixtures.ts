import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type SchemaContract, translateSource } from '@xprotocol/translate';

/** The recorded MCP servers vendored in testdata/mcp-servers at the repository root (see testdata/SOURCES.md). */
export const SERVERS_DIR = join(import.meta.dirname, '../../../testdata/mcp-servers');

export function recorded(file: string): { tools: unknown[]; prompts: unknown[] } {
  const data = JSON.parse(readFileSync(join(SERVERS_DIR, file), 'utf8')) as {
    tools: unknown[];
    prompts?: unknown[];
  };
  return { tools: data.tools, prompts: data.prompts ?? [] };
}

export function tool(
  name: string,
  description: string,
  inputSchema: Record<string, unknown> = { type: 'object' },
) {
  return { name, description, inputSchema };
}

export function translate(
  source: string,
  namespace: string,
  tools: unknown[],
  prompts: unknown[] = [],
): SchemaContract[] {
  const out = translateSource({ name: source, namespace, tools, prompts, adapterVersion: '0.1.0' });
  if (out.refused.length > 0) throw new Error(`refused: ${JSON.stringify(out.refused)}`);
  return out.contracts;
}
