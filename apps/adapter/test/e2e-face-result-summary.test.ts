// Honest results end to end (docs/architecture.md, "Honest results"): the built adapter bin's
// stdio face over the real `@modelcontextprotocol/server-filesystem`, with
// `mcp_server.result_summary_bytes: 4096`. Reading a file of about 100 KB gives a `content[]`
// within the bound — the text's beginning, then a notice naming the whole size, `structuredContent`
// and the tool's `head` and `tail` arguments — while `structuredContent` keeps the whole text; a
// small file comes back as the server sent it; and with the bound at 0 nothing is summarized.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FS_SERVER, Processes } from './support/processes.js';

const procs = new Processes();
const files = join(procs.dir, 'files');
/** 2,000 numbered lines of about 50 bytes: about 100 KB, the last line known. */
const BIG = Array.from({ length: 2000 }, (_, i) => `line ${i + 1} of the large file, padded to fifty b`).join(
  '\n',
);
const clients: Client[] = [];

function config(name: string, bound: number): string {
  return procs.file(
    `${name}.yml`,
    `mcp_sources:
  - name: files
    transport: stdio
    command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(FS_SERVER)}, ${JSON.stringify(files)}]
    xprotocol_namespace: com.test.files
mcp_server:
  transport: stdio
  result_summary_bytes: ${bound}
state_database: ./${name}.db
logging:
  level: warn
  format: json
`,
  );
}

async function read(client: Client, file: string) {
  return (await client.callTool({ name: 'read_text_file', arguments: { path: join(files, file) } })) as {
    content: { type: string; text: string }[];
    structuredContent?: { content?: string };
    isError?: boolean;
  };
}

let bounded: Client;
let unbounded: Client;

beforeAll(async () => {
  mkdirSync(files);
  writeFileSync(join(files, 'big.txt'), BIG);
  writeFileSync(join(files, 'small.txt'), 'a small file');
  bounded = await procs.mcpClient(config('bounded', 4096));
  unbounded = await procs.mcpClient(config('unbounded', 0));
  clients.push(bounded, unbounded);
}, 120_000);
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await procs.close();
});

describe('a result over result_summary_bytes', () => {
  it('is summarized in content[] within the bound, pointing to structuredContent and head/tail', async () => {
    const result = await read(bounded, 'big.txt');
    expect(result.isError).not.toBe(true);
    expect(result.content).toHaveLength(1);
    const text = result.content[0]!.text;
    expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(4096);
    expect(text.startsWith('line 1 of the large file')).toBe(true);
    expect(text).toContain(`the first part of ${Buffer.byteLength(BIG)} bytes of text`);
    expect(text).toContain('the whole result is in structuredContent');
    expect(text).toContain('`head`');
    expect(text).toContain('`tail`');
    expect(text).not.toMatch(/hidden/i);
    // The whole text is kept, as the server sent it.
    expect(result.structuredContent?.content).toBe(BIG);
  }, 60_000);

  it('leaves a small result as the server sent it', async () => {
    const result = await read(bounded, 'small.txt');
    expect(result.content).toEqual([{ type: 'text', text: 'a small file' }]);
    expect(result.structuredContent).toEqual({ content: 'a small file' });
  }, 60_000);

  it('is left whole with the bound at 0', async () => {
    const result = await read(unbounded, 'big.txt');
    expect(result.content).toEqual([{ type: 'text', text: BIG }]);
  }, 60_000);
});
