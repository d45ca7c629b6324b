// Builds testdata/vectors/xp-mcp-tag.json (docs/protocol.md §10.5, "The mcp tag"; §10.4 for the
// progress token): session contexts and xp.mcp.request payloads with the verdict a reader gives
// them, each limit at exactly its size and one byte over, in single- and multi-byte characters.
// Generated so the long strings are exact; the verdicts are written by hand from the document.

/** One case: the JSON text of a context or payload, and the verdict (the field at fault, if any). */
export interface McpTagCase {
  name: string;
  text: string;
  expect: { verdict: 'accepted' } | { verdict: 'refused'; field: string };
}

/** The whole file. */
export interface McpTagVectors {
  description: string;
  contexts: McpTagCase[];
  mcp_request_payloads: McpTagCase[];
}

const SESSION = '5b0e3c1f9d2a4e6b8c7d1e0f2a3b4c5d';
const ok = { verdict: 'accepted' } as const;
const bad = (field: string) => ({ verdict: 'refused', field }) as const;

/** `{"sampling":{"x":"<fill>"}}` grown to exactly `bytes` bytes of UTF-8 with `unit` characters. */
function capabilitiesOf(bytes: number, unit: string): Record<string, unknown> {
  const frame = JSON.stringify({ sampling: { x: '' } }).length;
  const unitBytes = new TextEncoder().encode(unit).length;
  const room = bytes - frame;
  const fill = unit.repeat(Math.floor(room / unitBytes)) + 'a'.repeat(room % unitBytes);
  return { sampling: { x: fill } };
}

function context(fields: Record<string, unknown>): string {
  return JSON.stringify({ session: SESSION, capabilities: {}, ...fields });
}

function contextCases(): McpTagCase[] {
  const state = (text: string) => context({ input: { state: text } });
  const caps = (bytes: number, unit: string) => context({ capabilities: capabilitiesOf(bytes, unit) });
  return [
    { name: 'session and capabilities only', text: context({}), expect: ok },
    {
      name: 'every field',
      text: context({
        capabilities: { sampling: {}, elicitation: { form: {} } },
        clientInfo: { name: 'claude-code', version: '2.1.0' },
        progress: true,
        input: { responses: { q1: { action: 'accept' } }, state: 'opaque' },
      }),
      expect: ok,
    },
    { name: 'no session', text: JSON.stringify({ capabilities: {} }), expect: bad('session') },
    { name: 'session of 15 characters', text: context({ session: 'a'.repeat(15) }), expect: bad('session') },
    { name: 'session of 64 characters', text: context({ session: 'a'.repeat(64) }), expect: ok },
    { name: 'session of 65 characters', text: context({ session: 'a'.repeat(65) }), expect: bad('session') },
    { name: 'session with a dot', text: context({ session: `${SESSION}.x` }), expect: bad('session') },
    { name: 'no capabilities', text: JSON.stringify({ session: SESSION }), expect: bad('capabilities') },
    { name: 'capabilities an array', text: context({ capabilities: [] }), expect: bad('capabilities') },
    { name: 'capabilities of exactly 8192 bytes', text: caps(8192, 'a'), expect: ok },
    { name: 'capabilities of 8193 bytes', text: caps(8193, 'a'), expect: bad('capabilities') },
    { name: 'capabilities of exactly 8192 bytes in 2-byte characters', text: caps(8192, 'é'), expect: ok },
    {
      name: 'capabilities of 8193 bytes in 2-byte characters (fewer than 8192 UTF-16 units)',
      text: caps(8193, 'é'),
      expect: bad('capabilities'),
    },
    { name: 'an unknown field', text: context({ colour: 'red' }), expect: bad('colour') },
    { name: 'progress not a boolean', text: context({ progress: 'yes' }), expect: bad('progress') },
    { name: 'progress false', text: context({ progress: false }), expect: ok },
    {
      name: 'clientInfo name of 256 bytes',
      text: context({ clientInfo: { name: 'n'.repeat(256), version: '1' } }),
      expect: ok,
    },
    {
      name: 'clientInfo name of 257 bytes',
      text: context({ clientInfo: { name: 'n'.repeat(257), version: '1' } }),
      expect: bad('clientInfo'),
    },
    {
      name: 'clientInfo without a version',
      text: context({ clientInfo: { name: 'x' } }),
      expect: bad('clientInfo'),
    },
    { name: 'input.state of exactly 65536 bytes', text: state('s'.repeat(65536)), expect: ok },
    { name: 'input.state of 65537 bytes', text: state('s'.repeat(65537)), expect: bad('input.state') },
    {
      name: 'input.state of exactly 65536 bytes in 2-byte characters',
      text: state('é'.repeat(32768)),
      expect: ok,
    },
    {
      name: 'input.state of 65538 bytes in 2-byte characters (32769 UTF-16 units)',
      text: state('é'.repeat(32769)),
      expect: bad('input.state'),
    },
    {
      name: 'input.state of exactly 65536 bytes in 4-byte characters (32768 UTF-16 units)',
      text: state('😀'.repeat(16384)),
      expect: ok,
    },
    { name: 'input.state not a string', text: state(1 as unknown as string), expect: bad('input.state') },
    {
      name: 'input.responses an array',
      text: context({ input: { responses: [] } }),
      expect: bad('input.responses'),
    },
    { name: 'input with an unknown field', text: context({ input: { cursor: 'x' } }), expect: bad('input') },
  ];
}

function payloadCases(): McpTagCase[] {
  const payload = (params: unknown) => JSON.stringify({ method: 'resources/read', params });
  return [
    { name: 'a request without _meta', text: payload({ uri: 'test://static-text' }), expect: ok },
    {
      name: '_meta without a progress token',
      text: payload({ uri: 'test://a', _meta: { trace: 'x' } }),
      expect: ok,
    },
    {
      name: '_meta with a progress token',
      text: payload({ uri: 'test://a', _meta: { progressToken: 7 } }),
      expect: bad('params._meta.progressToken'),
    },
    {
      name: '_meta with a null progress token',
      text: payload({ uri: 'test://a', _meta: { progressToken: null } }),
      expect: bad('params._meta.progressToken'),
    },
  ];
}

/** The file's content, as it is written. */
export function mcpTagVectorsText(): string {
  const vectors: McpTagVectors = {
    description:
      "The mcp tag (docs/protocol.md §10.5, \"The mcp tag\"): each context is the plaintext of an mcp tag, as JSON text, with the reader's verdict at step 10 of §4 ('accepted', or 'refused' naming the field at fault; a request carrying a refused tag is answered SCHEMA_VIOLATION). Every length is counted in bytes of UTF-8. mcp_request_payloads: the progress-token rule of §10.4 for xp.mcp.request payloads.",
    contexts: contextCases(),
    mcp_request_payloads: payloadCases(),
  };
  return `${JSON.stringify(vectors, null, 2)}\n`;
}
