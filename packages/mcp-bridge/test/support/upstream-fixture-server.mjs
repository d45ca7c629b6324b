#!/usr/bin/env node
// A small stdio MCP server for fault tests, written with the SDK v2 low-level Server.
// Tools: echo {text}; sleep {ms} (answers after ms); exit (the process exits mid-call, no answer);
// fail (a JSON-RPC error -32050 with a fixed message); noisy {kind} (misbehaves on stdout or stderr,
// then answers; endless_line never answers: it writes one line without end); env_names (its environment's variable names); plus filler tools so tools/list has pages.
// Every start appends one line to the file named by FIXTURE_STARTS_FILE, so a test can count
// restarts. tools/list answers two tools per page.
// (FIXTURE_LOOSE_SCHEMAS: see below.)
import { appendFileSync } from 'node:fs';
import { ProtocolError, Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

if (process.env.FIXTURE_STARTS_FILE) appendFileSync(process.env.FIXTURE_STARTS_FILE, `${process.pid}\n`);

const object = (properties, required = []) => ({ type: 'object', properties, required });
const tools = [
  {
    name: 'echo',
    description: 'Echoes the text back.',
    inputSchema: object({ text: { type: 'string' } }, ['text']),
  },
  {
    name: 'sleep',
    description: 'Answers after ms milliseconds.',
    inputSchema: object({ ms: { type: 'integer' } }, ['ms']),
  },
  { name: 'exit', description: 'Exits the server process mid-call.', inputSchema: object({}) },
  { name: 'fail', description: 'Answers with a JSON-RPC error.', inputSchema: object({}) },
  { name: 'filler_a', description: 'Does nothing.', inputSchema: object({}) },
  {
    name: 'env_names',
    description: 'Answers the names of its environment variables.',
    inputSchema: object({}),
  },
  {
    name: 'noisy',
    description:
      'Writes `kind` (big_line: a 1 MiB line; garbage: non-JSON lines; stderr: 8 MiB) first; endless_line: a line that never ends, no answer.',
    inputSchema: object({ kind: { type: 'string' } }, ['kind']),
    annotations: { readOnlyHint: true },
  },
];
// With FIXTURE_LOOSE_SCHEMAS set, two more tools list schemas some real servers send: one with no
// "type" at all (server-gitlab's zod export), one with no inputSchema; and one entry without a name.
if (process.env.FIXTURE_LOOSE_SCHEMAS) {
  tools.push(
    {
      name: 'typeless',
      description: 'Lists a schema without a type.',
      inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#' },
    },
    { name: 'schemaless', description: 'Lists no input schema.' },
    { description: 'An entry without a name.', inputSchema: object({}) },
  );
}
const PAGE = 2;

const server = new Server({ name: 'xp-upstream-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', async (request) => {
  const start = Number(request.params?.cursor ?? 0);
  const page = tools.slice(start, start + PAGE);
  return start + PAGE < tools.length ? { tools: page, nextCursor: String(start + PAGE) } : { tools: page };
});
server.setRequestHandler('tools/call', async (request) => {
  const args = request.params.arguments ?? {};
  switch (request.params.name) {
    case 'echo':
      return { content: [{ type: 'text', text: String(args.text) }] };
    case 'sleep':
      await new Promise((resolve) => setTimeout(resolve, Number(args.ms)));
      return { content: [{ type: 'text', text: `slept ${args.ms} ms` }] };
    case 'exit':
      process.exit(3);
      break;
    case 'fail':
      throw new ProtocolError(-32050, 'fixture refused: the fail tool always fails');
    case 'filler_a':
      return { content: [] };
    case 'env_names':
      return { content: [{ type: 'text', text: JSON.stringify(Object.keys(process.env).sort()) }] };
    case 'noisy':
      if (args.kind === 'big_line') process.stdout.write(`${'x'.repeat(1024 * 1024)}\n`);
      if (args.kind === 'garbage') process.stdout.write('not json\n{"half": \n\u0000\u0001 binary\n');
      if (args.kind === 'stderr')
        for (let i = 0; i < 128; i++) process.stderr.write(`${'e'.repeat(65535)}\n`);
      if (args.kind === 'endless_line') {
        const chunk = Buffer.alloc(1024 * 1024, 'x');
        // Until the client stops reading (then a write fails and no drain comes) or ends us.
        const pump = () => {
          while (process.stdout.write(chunk));
          process.stdout.once('drain', pump);
        };
        pump();
        return new Promise(() => {});
      }
      return { content: [{ type: 'text', text: `wrote ${args.kind}` }] };
  }
  throw new ProtocolError(-32602, `unknown tool ${request.params.name}`);
});
await server.connect(new StdioServerTransport());
// Like a well-behaved stdio server, end when the client closes stdin (even with a sleep pending).
process.stdin.on('end', () => process.exit(0));
