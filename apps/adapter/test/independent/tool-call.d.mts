// The types of tool-call.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * The request kind of a server's entry under a namespace (§10.1: "The segment of an MCP name"),
 * or a refusal naming the character at fault.
 *
 * @param {'tool' | 'prompt' | 'resource_template'} entry @param {string} namespace @param {string} name
 */
export function entryKind(
  entry: 'tool' | 'prompt' | 'resource_template',
  namespace: string,
  name: string,
): string;
/**
 * Refuses a tool call's arguments that are not a JSON object (§10.9, step 3's schema requires one).
 *
 * @param {unknown} args
 */
export function checkToolArguments(args: unknown): unknown;
/**
 * Reads a `{kind}.result` payload, the MCP CallToolResult (§10.9); other members are ignored.
 *
 * @param {unknown} payload
 */
export function readToolResult(payload: unknown): {
  content: {
    type: string;
    text?: string;
  }[];
  structuredContent?: object;
  isError?: boolean;
  _meta?: object;
};
