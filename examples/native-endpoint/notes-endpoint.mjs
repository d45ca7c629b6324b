// A native XProtocol endpoint with two tools (see packages/endpoint/README.md).
import { serveEndpoint } from '@xprotocol/endpoint';

const notes = new Map([['welcome', 'Hello from a native endpoint.']]);
const title = { type: 'string', minLength: 1, description: 'The title of the note.', examples: ['welcome'] };
const callers = (process.env.CALLER_KEYS ?? '').split(',').filter(Boolean);

const endpoint = await serveEndpoint({
  key: process.env.ENDPOINT_KEY ?? './notes-endpoint.key',
  relays: (process.env.RELAY_URL ?? 'ws://127.0.0.1:8765').split(','),
  namespace: 'demo.notes',
  access: { grants: callers.map((key) => ({ key, capabilities: ['demo.notes.*'] })) },
  tools: [
    {
      name: 'read_note',
      description: 'Read the text of a note, found by its title.',
      inputSchema: { type: 'object', properties: { title }, required: ['title'] },
      outputSchema: { type: 'object', properties: { title, text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnlyHint: true },
      handler: async (args) => {
        if (!notes.has(args.title)) throw new Error(`no note titled "${args.title}"`);
        return { title: args.title, text: notes.get(args.title) };
      },
    },
  ],
});
console.error(JSON.stringify({ event: 'ready', key: endpoint.keys.ed25519, kinds: endpoint.kinds }));
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => endpoint.stop().then(() => process.exit(0)));
