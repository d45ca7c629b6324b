// The floor peer forwards real calls: server-memory over stdio and server-everything over
// Streamable HTTP, each behind the bare passthrough, answer an SDK client's tools/list and tools/call.
import { afterAll, expect, test } from 'vitest';
import { startFloor } from '../src/floor.js';
import { EVERYTHING_SERVER, freePort, MEMORY_SERVER, Processes, waitForLine } from '../src/processes.js';

const procs = new Processes();
afterAll(() => procs.close());

test('in front of a stdio server, the floor lists and calls its tools', async () => {
  const memoryEnv = { MEMORY_FILE_PATH: procs.file('memory.jsonl', '') };
  const client = await startFloor(procs, ['stdio', process.execPath, MEMORY_SERVER], memoryEnv);
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('read_graph');
    const result = await client.callTool({ name: 'read_graph', arguments: {} });
    expect(result.isError).toBeFalsy();
  } finally {
    await client.close();
  }
});

test('in front of a Streamable HTTP server, the floor answers each call with its own answer', async () => {
  const port = await freePort();
  const everything = procs.spawn(EVERYTHING_SERVER, ['streamableHttp'], { env: { PORT: String(port) } });
  await waitForLine(everything, 'stderr', (line) => line.includes('listening'), 30_000, 'server-everything');
  const client = await startFloor(procs, ['http', `http://127.0.0.1:${port}/mcp`]);
  try {
    const results = await Promise.all(
      ['a', 'b', 'c'].map((message) => client.callTool({ name: 'echo', arguments: { message } })),
    );
    expect(results.map((result) => JSON.stringify(result.content))).toEqual(
      ['a', 'b', 'c'].map((message) => JSON.stringify([{ type: 'text', text: `Echo: ${message}` }])),
    );
  } finally {
    await client.close();
  }
});
