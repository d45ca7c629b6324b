/**
 * apps/adapter/config.schema.json is generated from the zod schema and committed for editors.
 * This test fails when it is stale; `pnpm --filter @xprotocol/mcp-adapter run gen:config-schema`
 * rewrites it (vitest's file snapshot with `-u`).
 */
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA_ID, configJsonSchema, configJsonSchemaText } from '../src/config/index.js';

type Schema = { [key: string]: unknown; properties?: Record<string, Schema>; items?: Schema };

describe('config.schema.json', () => {
  it('is up to date (regenerate with `pnpm run gen:config-schema`)', async () => {
    await expect(configJsonSchemaText()).toMatchFileSnapshot('../config.schema.json');
  });

  it('describes the file as written: snake_case keys, closed objects, defaults and patterns', () => {
    const schema = configJsonSchema() as Schema;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(CONFIG_SCHEMA_ID);
    expect(schema.additionalProperties).toBe(false);
    // identity is required unless the file is a pure MCP gateway: a rule across keys, not the schema's.
    expect(schema.required).toBeUndefined();
    expect(Object.keys(schema.properties ?? {})).toEqual([
      'identity',
      'relay',
      'mcp_sources',
      'openapi_sources',
      'xprotocol_sources',
      'mcp_server',
      'discovery',
      'logging',
      'access',
      'state_database',
      'shared_state',
      'call_timeout_seconds',
      'network',
      'limits',
      'admin',
      'audit',
      'tracing',
    ]);
    const source = schema.properties?.mcp_sources?.items as Schema;
    expect(source.additionalProperties).toBe(false);
    expect(source.required).toEqual(['name', 'transport', 'xprotocol_namespace']);
    expect(source.properties?.transport?.enum).toEqual(['stdio', 'sse', 'streamable_http']);
    expect(source.properties?.rate_limit?.properties?.requests_per_minute?.default).toBe(600);
    expect(source.properties?.description_quality_threshold?.default).toBe(0.4);
    expect(source.properties?.connect_timeout_seconds).toMatchObject({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 600,
      default: 30,
    });
    expect(typeof source.properties?.xprotocol_namespace?.description).toBe('string');
    const grant = schema.properties?.access?.properties?.grants?.items as Schema;
    expect(grant.properties?.key?.pattern).toBe('^ed25519:[0-9a-f]{64}$');
    const server = schema.properties?.mcp_server as Schema;
    expect(server.properties?.port).toMatchObject({ type: 'integer', minimum: 1, maximum: 65535 });
  });

  it('agrees with the loader on the key patterns it states', () => {
    const schema = configJsonSchema() as Schema;
    const source = (schema.properties?.mcp_sources?.items ?? {}) as Schema;
    const ns = new RegExp(String(source.properties?.xprotocol_namespace?.pattern));
    expect(['com.acme.files', 'a', 'x-y_z.1'].every((s) => ns.test(s))).toBe(true);
    expect(['xp', 'xp.tools', 'com..a', '.a', 'a.', 'a b'].some((s) => ns.test(s))).toBe(false);
  });
});
