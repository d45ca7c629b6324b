/**
 * The tools of the suite's own MCP server, chosen so that each conformance rule has something to
 * bite on: well-described tools for search and annotations, a poorly described one for the quality
 * flag, a tool that needs a grant the suite's caller lacks, one that always fails upstream, and one
 * with a strict schema for grammar and schema checks. Every call is recorded (see test-server.ts),
 * so the suite can prove a refused call never reached the server.
 * @module
 */

/** One tool as the server lists it, plus what the suite knows about it. */
export interface TestTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  /** The capability the suite's configuration requires for it. */
  readonly capability: string;
  /** Arguments the schema accepts (and the grammar must accept, as JSON). */
  readonly valid: Record<string, unknown>;
  /** Arguments the schema refuses (and the grammar must refuse). */
  readonly invalid: Record<string, unknown>;
  /** An intent whose best match must be this tool (xp.schema.describe), if any. */
  readonly intent?: string;
}

/** The namespace of the test server's tools in the suite's configuration. */
export const TEST_NAMESPACE = 'conf.test';
/** The namespace of the second, rate-limited source (same server, one tool). */
export const RATE_NAMESPACE = 'conf.rate';
/** The message the `fail_upstream` tool fails with. */
export const UPSTREAM_FAILURE_MESSAGE = 'conformance upstream failure 4711';
/** The tool whose description is deliberately poor (scored above the usual floor, below the threshold). */
export const POOR_TOOL = 'helper';
/** The tool whose description is too poor to publish under the usual floor (0.20). */
export const UNPUBLISHABLE_TOOL = 'thing';

const title = { type: 'string', minLength: 1, maxLength: 200, description: 'The exact title of the note' };

/** The tools, in the order the server lists them. */
export const TEST_TOOLS: readonly TestTool[] = [
  {
    name: 'read_note',
    description:
      'Read the full text of one note, given its exact title. Returns the note body as plain text. Use search_notes first when the title is not known.',
    inputSchema: { type: 'object', properties: { title }, required: ['title'], additionalProperties: false },
    capability: `${TEST_NAMESPACE}.read`,
    valid: { title: 'Groceries' },
    invalid: { title: 7 },
    intent: 'read the text of a note whose title I know',
  },
  {
    name: 'search_notes',
    description:
      'Search every note for a word or phrase and return the titles of the matching notes, best match first. Use it to find a note when its exact title is unknown.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'Words to look for' },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: 'Most titles to return' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    capability: `${TEST_NAMESPACE}.read`,
    valid: { query: 'milk', limit: 5 },
    invalid: { query: 'milk', limit: 'five' },
    intent: 'find notes that mention a word',
  },
  {
    name: 'delete_note',
    description:
      'Permanently delete one note, given its exact title. The note cannot be recovered afterwards, so confirm the title with search_notes first.',
    inputSchema: { type: 'object', properties: { title }, required: ['title'], additionalProperties: false },
    capability: `${TEST_NAMESPACE}.admin`,
    valid: { title: 'Old list' },
    invalid: {},
    intent: 'permanently remove a note',
  },
  {
    name: 'convert_currency',
    description:
      'Convert an amount of money from one currency to another at the current exchange rate. Currencies are three-letter ISO 4217 codes such as USD or EUR.',
    inputSchema: {
      type: 'object',
      properties: {
        amount: { type: 'number', minimum: 0, description: 'The amount to convert' },
        from: { type: 'string', enum: ['USD', 'EUR', 'GBP', 'JPY'], description: 'Currency of the amount' },
        to: { type: 'string', enum: ['USD', 'EUR', 'GBP', 'JPY'], description: 'Currency to convert into' },
      },
      required: ['amount', 'from', 'to'],
      additionalProperties: false,
    },
    capability: `${TEST_NAMESPACE}.read`,
    valid: { amount: 12.5, from: 'USD', to: 'EUR' },
    invalid: { amount: 12.5, from: 'USD', to: 'XYZ' },
    intent: 'convert dollars to euros',
  },
  {
    name: 'record_count',
    description:
      'Store a counter value between 0 and 100 under an optional label and return the stored value. Use it to keep a tally between calls.',
    inputSchema: {
      type: 'object',
      properties: {
        count: { type: 'integer', minimum: 0, maximum: 100, description: 'The value to store' },
        label: { type: 'string', enum: ['apples', 'pears'], description: 'What is being counted' },
      },
      required: ['count'],
      additionalProperties: false,
    },
    capability: `${TEST_NAMESPACE}.read`,
    valid: { count: 3, label: 'pears' },
    invalid: { count: 'three' },
  },
  {
    name: 'fail_upstream',
    description:
      'Always fails with a JSON-RPC error from the MCP server, so that error forwarding can be tested. It never returns a result.',
    inputSchema: { type: 'object', properties: { reason: { type: 'string' } }, additionalProperties: false },
    capability: `${TEST_NAMESPACE}.read`,
    valid: { reason: 'test' },
    invalid: { reason: 1 },
  },
  {
    name: POOR_TOOL,
    description: 'Handles stuff for you.',
    inputSchema: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] },
    capability: `${TEST_NAMESPACE}.read`,
    valid: { x: 'y' },
    invalid: { x: false },
  },
  {
    name: UNPUBLISHABLE_TOOL,
    description: 'stuff',
    inputSchema: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] },
    capability: `${TEST_NAMESPACE}.read`,
    valid: { x: 'y' },
    invalid: { x: false },
  },
];

/** The prompt the server lists (probes the optional prompt translation). */
export const TEST_PROMPT = {
  name: 'summarize_note',
  description: 'Ask for a short summary of one note, given its title.',
  arguments: [{ name: 'title', description: 'The exact title of the note', required: true }],
};

/** The resource template the server lists (probes the optional resource translation). */
export const TEST_RESOURCE_TEMPLATE = {
  name: 'note',
  uriTemplate: 'notes://{title}',
  description: 'The text of one note, named by its exact title.',
  mimeType: 'text/plain',
};

/** The text of the test server's answer to `prompts/get` (it names the title it was given). */
export function promptText(title: string): string {
  return `Summarize the note titled ${JSON.stringify(title)} in one sentence.`;
}

/** The text of the note behind a URI of {@link TEST_RESOURCE_TEMPLATE}. */
export function noteText(uri: string): string {
  return `The note at ${uri}: buy milk.`;
}
