/**
 * How much of each tool the face's `tools/list` shows (`listing`, docs/architecture.md "Listing
 * modes"): `full` (every definition as it is, the default), `compact` (names, a one-line
 * description, only the top-level properties of each input schema; the whole definition through
 * `describe_tool`), `search` (only `search_tools`, `describe_tool` and the tools the session used
 * lately). What a listing leaves out never loosens a call: arguments are checked against the whole
 * schema whatever the mode.
 * @module
 */
import type { McpToolDefinition } from '@xprotocol/translate';

/** What the face's `tools/list` shows. */
export type ListingMode = 'full' | 'compact' | 'search';

/** The built-in tool that gives a tool's whole definition (listed in `compact` and `search`). */
export const DESCRIBE_TOOL = 'describe_tool';

/** The most characters of a compact description. */
const _ONE_LINE = 160;
/** How many recently used tools a session's `search` listing keeps. */
export const RECENT_TOOLS = 16;

/** The `describe_tool` definition. */
export function _describeToolDefinition(): McpToolDefinition {
  return {
    name: DESCRIBE_TOOL,
    description:
      'Give the whole definition of a tool (its description and full input schema) before calling it; this list shows only a summary.',
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string', description: 'The tool name' } },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

/**
 * The listing of `tools` (the face's, `search_tools` last when listed) in `mode`, with
 * `describe_tool` after them outside `full`; `recent` names the tools a `search` listing keeps.
 */
export function _listing(
  tools: readonly McpToolDefinition[],
  mode: ListingMode,
  recent: ReadonlySet<string>,
  builtIn: (name: string) => boolean,
): McpToolDefinition[] {
  if (mode === 'full') return [...tools];
  const shown =
    mode === 'compact'
      ? tools.map((tool) => (builtIn(tool.name) ? tool : _compactTool(tool)))
      : tools.filter((tool) => builtIn(tool.name) || recent.has(tool.name));
  return [...shown, _describeToolDefinition()];
}

/** `tool` with a one-line description and only the top-level properties of its input schema. */
export function _compactTool(tool: McpToolDefinition): McpToolDefinition {
  const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: unknown };
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, value]) => [name, _topLevel(value)]),
  );
  const compact: Record<string, unknown> = {
    name: tool.name,
    ...(tool.title !== undefined && { title: tool.title }),
    description: _oneLine(tool.description ?? ''),
    inputSchema: {
      type: 'object',
      properties,
      ...(Array.isArray(schema.required) && schema.required.length > 0 && { required: schema.required }),
    },
  };
  return compact as unknown as McpToolDefinition;
}

/** A property's schema reduced to its type (what a model needs to pick the tool, not to fill it). */
function _topLevel(value: unknown): Record<string, unknown> {
  const type = (value as { type?: unknown } | null)?.type;
  return typeof type === 'string' || Array.isArray(type) ? { type } : {};
}

/** The first sentence (or line) of `text`, at most {@link _ONE_LINE} characters. */
export function _oneLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  const end = line.search(/[.!?](\s|$)/);
  const sentence = end >= 0 ? line.slice(0, end + 1) : line;
  return sentence.length > _ONE_LINE ? `${sentence.slice(0, _ONE_LINE - 3).trimEnd()}...` : sentence;
}

/**
 * Answers a `describe_tool` call: the whole definition of the tool `args.name` among `tools` (those
 * the caller may see), as text and `structuredContent`; a tool error naming what was wrong.
 */
export function _describeTool(
  tools: readonly McpToolDefinition[],
  args: Record<string, unknown>,
): Record<string, unknown> {
  const { name } = args;
  const tool = typeof name === 'string' ? tools.find((t) => t.name === name) : undefined;
  if (!tool) {
    const what =
      typeof name === 'string'
        ? `no tool named ${JSON.stringify(name)} here (search_tools finds tools by task)`
        : 'describe_tool expects {"name": "<a tool name>"}';
    return { content: [{ type: 'text', text: what }], isError: true };
  }
  return {
    content: [{ type: 'text', text: JSON.stringify(tool) }],
    structuredContent: { tool },
  };
}
