// Real servers list schemas the MCP SDK's own schema refuses (server-gitlab exports input schemas
// with no "type"); one such tool must not cost every other tool of the server. A real stdio child.
import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamSession } from '../src/index.js';
import { FIXTURE_SERVER, recordingLogger } from './support/http-servers.js';

let session: UpstreamSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('tools/list read leniently', () => {
  it('keeps every tool: a schema without type or no schema is read as an object schema, a nameless entry skipped, all said in one warning', async () => {
    const logger = recordingLogger();
    session = new UpstreamSession({
      name: 'loose',
      transport: {
        type: 'stdio',
        command: [process.execPath, FIXTURE_SERVER],
        env: { FIXTURE_LOOSE_SCHEMAS: '1' },
      },
      logger,
    });
    const tools = await session.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('echo')?.inputSchema).toMatchObject({ type: 'object', required: ['text'] });
    expect(byName.get('typeless')?.inputSchema).toEqual({
      type: 'object',
      $schema: 'http://json-schema.org/draft-07/schema#',
    });
    expect(byName.get('schemaless')?.inputSchema).toEqual({ type: 'object' });
    expect(tools.every((tool) => typeof tool.name === 'string' && tool.name !== '')).toBe(true);
    expect(tools).toHaveLength(9);
    const warning = logger.entries.find((entry) => entry.message.includes('tools/list'));
    expect(warning?.message).toContain('2 tools listed an inputSchema without "type": "object"');
    expect(warning?.message).toContain('1 entries were not tools (skipped)');
    // A call of a repaired tool goes through as usual.
    const echoed = await session.callTool('echo', { text: 'still here' }, { timeoutMs: 10_000 });
    expect(echoed.content).toEqual([{ type: 'text', text: 'still here' }]);
  });
});
