// Tools whose schemas are written with a schema library (zod 4, through the Standard JSON Schema
// interface it implements) instead of as JSON Schema: served as the JSON Schema the library gives,
// checked like any other (a call outside the schema is refused before the handler runs), and a
// schema the library cannot express refused at start, naming the tool. A real relay on loopback,
// a real XpCaller.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateIdentity } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { XpCaller } from '@xprotocol/mcp-bridge';
import { type Relay, startRelay } from '@xprotocol/relay';
import { RelayPool } from '@xprotocol/relay-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type RunningEndpoint, serveEndpoint, ToolDefinitionError } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'xp-endpoint-zod-'));
const client = generateIdentity();
const ran: unknown[] = [];
let relay: Relay;
let endpoint: RunningEndpoint;
let pool: RelayPool;

const Note = z.object({
  title: z.string().min(1).max(80).describe('The title of the note.'),
  tags: z
    .array(z.enum(['work', 'home']))
    .default([])
    .describe('Tags to file it under.'),
});

beforeAll(async () => {
  relay = await startRelay({ port: 0 });
  endpoint = await serveEndpoint({
    key: join(dir, 'endpoint.key'),
    relays: [relay.url],
    namespace: 'test.zod',
    access: { grants: [{ key: client.keys.ed25519, capabilities: ['test.zod.*'] }] },
    tools: [
      {
        name: 'file_note',
        description: 'File a note under a title and tags, and say where it was filed.',
        inputSchema: Note,
        outputSchema: z.object({ filed: z.string() }),
        handler: async (args) => {
          ran.push(args);
          return {
            filed: `${String(args.title)} (${(args.tags as string[] | undefined)?.join(', ') ?? ''})`,
          };
        },
      },
    ],
  });
  pool = await RelayPool.open({ urls: [relay.url] });
});

afterAll(async () => {
  await pool?.close();
  await endpoint?.stop();
  await relay?.close();
  rmSync(dir, { recursive: true, force: true });
});

const caller = () => new XpCaller({ identity: client, pool, signatures: nodeSignatures, cipher: nodeCipher });

describe('serveEndpoint with zod schemas (Standard JSON Schema)', () => {
  it('publishes the JSON Schema zod gives for the input, without a $schema of its own', async () => {
    const [contract] = await caller().catalog(endpoint.keys.ed25519, 15_000);
    expect(contract?.kind).toBe('test.zod.file_note');
    expect(contract?.payload).toMatchObject({
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1, maxLength: 80, description: 'The title of the note.' },
        tags: { type: 'array', items: { type: 'string', enum: ['work', 'home'] } },
      },
      required: ['title'],
    });
    expect(contract?.payload).not.toHaveProperty('$schema');
  });

  it('serves a call inside the schema, and refuses one outside it before the handler runs', async () => {
    const served = await caller().call({
      to: endpoint.keys,
      kind: 'test.zod.file_note',
      payload: { title: 'groceries', tags: ['home'] },
      timeoutMs: 15_000,
    });
    expect(served).toMatchObject({ ok: true, payload: { structuredContent: { filed: 'groceries (home)' } } });
    const before = ran.length;
    const refused = await caller().call({
      to: endpoint.keys,
      kind: 'test.zod.file_note',
      payload: { title: 'x', tags: ['garden'] },
      timeoutMs: 15_000,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'SCHEMA_VIOLATION' } });
    expect(ran.length).toBe(before);
  });

  it('refuses at start a schema zod cannot express as JSON Schema, naming the tool', async () => {
    const started = serveEndpoint({
      key: join(dir, 'bigint.key'),
      relays: [relay.url],
      namespace: 'test.zodbad',
      tools: [
        {
          name: 'count_big',
          description: 'Count up to a very large number given as a bigint and return the count.',
          inputSchema: z.object({ n: z.bigint() }),
          handler: async () => ({}),
        },
      ],
    });
    await expect(started).rejects.toThrow(ToolDefinitionError);
    await expect(started).rejects.toThrow(
      /tool "count_big": inputSchema: its schema library cannot express it/,
    );
  });
});
