/**
 * The JSON Schema of the configuration file, generated from the zod schema, for editor
 * completion (committed as `apps/adapter/config.schema.json`; a test keeps it current, and
 * `pnpm --filter @xprotocol/mcp-adapter run gen:config-schema` regenerates it). Editors that use
 * the YAML language server pick it up from a first line
 * `# yaml-language-server: $schema=<path or URL of config.schema.json>`.
 *
 * It describes the file as written: `${ENV}` is interpolated before validation, so an editor may
 * flag `port: ${PORT}` that the adapter accepts. Cross-field rules are not in it.
 * @module
 */
import { z } from 'zod';
import { configFileSchema } from './schema.js';

/** The schema's `$id` (a name, not a location: editors find the file by path). */
export const CONFIG_SCHEMA_ID = 'urn:xprotocol:mcp-adapter:config';

/** The JSON Schema (draft 2020-12) of the YAML configuration file. */
export function configJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(configFileSchema, { io: 'input', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  const { $schema, ...rest } = generated;
  return { $schema, $id: CONFIG_SCHEMA_ID, title: 'XProtocol MCP Adapter configuration', ...rest };
}

/** {@link configJsonSchema} as the committed file's text (2-space JSON, final newline). */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
