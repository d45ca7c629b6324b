// A native endpoint that breaks one rule the conformance suite's native profile checks, chosen by
// BROKEN_MODE: `allow-all` serves every key (no capability check), `no-examples` gives its schema
// no example, so the suite's call is one its handler refuses (an UPSTREAM_ERROR, not a result).
// Otherwise the example endpoint (notes-endpoint.mjs), with the same environment variables.
import { serveEndpoint } from '@xprotocol/endpoint';

const mode = process.env.BROKEN_MODE;
if (mode !== 'allow-all' && mode !== 'no-examples')
  throw new Error(`BROKEN_MODE: expected allow-all or no-examples, got ${mode}`);
const notes = new Map([['welcome', 'Hello from a native endpoint.']]);
const title = {
  type: 'string',
  minLength: 1,
  description: 'The title of the note.',
  ...(mode !== 'no-examples' && { examples: ['welcome'] }),
};
const callers = (process.env.CALLER_KEYS ?? '').split(',').filter(Boolean);
const endpoint = await serveEndpoint({
  key: process.env.ENDPOINT_KEY,
  relays: process.env.RELAY_URL.split(','),
  namespace: 'demo.notes',
  access: {
    ...(mode === 'allow-all' && { default: 'allow' }),
    grants: callers.map((key) => ({ key, capabilities: ['demo.notes.*'] })),
  },
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
