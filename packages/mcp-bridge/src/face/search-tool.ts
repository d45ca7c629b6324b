/**
 * The face's built-in `search_tools` tool (docs/design.md §7): finds the tools that fit a task
 * without loading every schema. Listed after the real tools, unless one of them has the name.
 * @module
 */
import type { McpToolDefinition } from '@xprotocol/translate';
import type { SchemaSearch } from '../discovery/schema-search.js';

/** The built-in search tool's name. */
export const SEARCH_TOOL = 'search_tools';

/** The search tool's definition, for a face listing `count` other tools. */
export function _searchToolDefinition(count: number): McpToolDefinition {
  return {
    name: SEARCH_TOOL,
    description: `Find the tools that fit a task among the ${count} tools here without reading every schema. Returns the best matches (name, what each is for, relevance); then call the chosen tool by name.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What you want to do, in plain words' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 50,
          default: 5,
          description: 'Most matches to return',
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

/**
 * Answers a `search_tools` call: the best matches of `search` for the query among `tools` (their
 * name, first sentence, relevance and when to use them), only tools `visible` lets the caller
 * see when given; a tool error for arguments it cannot use.
 */
export function _searchTools(
  search: SchemaSearch,
  tools: readonly McpToolDefinition[],
  args: Record<string, unknown>,
  visible?: (name: string) => boolean,
): Record<string, unknown> {
  const { query, limit } = args;
  if (
    typeof query !== 'string' ||
    query.trim() === '' ||
    (limit !== undefined && (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 50))
  ) {
    return {
      content: [
        { type: 'text', text: 'search_tools expects {"query": "<what you want to do>", "limit"?: 1..50}' },
      ],
      isError: true,
    };
  }
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const matches = search.search(query, (limit as number | undefined) ?? 5, visible).map((hit) => ({
    name: hit.id,
    relevance: hit.score,
    description: _firstSentence(byName.get(hit.id)?.description ?? ''),
    use_when: hit.use_when,
  }));
  return {
    content: [{ type: 'text', text: JSON.stringify(matches, null, 2) }],
    structuredContent: { matches },
  };
}

function _firstSentence(text: string): string {
  const end = text.search(/[.!?](\s|$)/);
  const sentence = end >= 0 ? text.slice(0, end + 1) : text;
  return sentence.length > 200 ? `${sentence.slice(0, 197)}...` : sentence;
}
