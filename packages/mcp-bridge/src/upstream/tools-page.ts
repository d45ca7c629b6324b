/**
 * One `tools/list` page from a wrapped server: through the SDK client, or read leniently when the
 * SDK's schema refuses the page, so that one malformed tool does not cost every tool of the server.
 * @module
 */
import type { Client } from '@modelcontextprotocol/client';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/** A tool as the server listed it (kept as received: translation copies it as it is). */
export type UpstreamTool = Record<string, unknown> & { name: string };

/**
 * One `tools/list` page: through the SDK (which also keeps each tool's output schema to check its
 * results), or, when the SDK's schema refuses the page, read leniently (see
 * {@link _LENIENT_TOOLS_PAGE}): one tool the SDK refuses would otherwise lose every tool.
 */
export async function _listPage(client: Client, cursor: string | undefined): Promise<_ToolsPage> {
  try {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    return {
      tools: page.tools as unknown as UpstreamTool[],
      ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
      repaired: [],
      skipped: [],
    };
  } catch (error) {
    if (!(SdkError.isInstance(error) && error.code === SdkErrorCode.InvalidResult)) throw error;
    return (await client.request(
      { method: 'tools/list', ...(cursor !== undefined && { params: { cursor } }) } as never,
      _LENIENT_TOOLS_PAGE as never,
    )) as unknown as _ToolsPage;
  }
}

/** One `tools/list` page, read leniently (see {@link _LENIENT_TOOLS_PAGE}). */
export interface _ToolsPage {
  tools: UpstreamTool[];
  nextCursor?: string;
  /** Tools whose `inputSchema` lacked `type: "object"` (given it). */
  repaired: string[];
  /** Entries that are no tool (no name), by position. */
  skipped: string[];
}

/**
 * A Standard Schema for a `tools/list` result that keeps every usable tool: a tool's `inputSchema`
 * without `type` (some servers export an empty schema) or missing is read as an object schema,
 * which MCP requires; an entry without a string `name` is skipped; a result that is not
 * `{tools: [...]}` is refused.
 */
const _LENIENT_TOOLS_PAGE = {
  '~standard': {
    version: 1,
    vendor: 'xprotocol',
    validate(value: unknown) {
      const page = value as { tools?: unknown; nextCursor?: unknown } | null;
      if (page === null || typeof page !== 'object' || !Array.isArray(page.tools)) {
        return { issues: [{ message: 'expected a tools/list result {tools: [...]}' }] };
      }
      const out: _ToolsPage = { tools: [], repaired: [], skipped: [] };
      for (const [index, entry] of page.tools.entries()) {
        const tool = entry as Record<string, unknown> | null;
        if (tool === null || typeof tool !== 'object' || typeof tool.name !== 'string' || tool.name === '') {
          out.skipped.push(`#${index}`);
          continue;
        }
        const schema = tool.inputSchema;
        if (
          schema !== null &&
          typeof schema === 'object' &&
          !Array.isArray(schema) &&
          (schema as { type?: unknown }).type === 'object'
        ) {
          out.tools.push(tool as unknown as UpstreamTool);
          continue;
        }
        const given = schema !== null && typeof schema === 'object' && !Array.isArray(schema) ? schema : {};
        if ((given as { type?: unknown }).type !== undefined) {
          // A declared type other than object cannot take MCP arguments: not a usable tool.
          out.skipped.push(tool.name);
          continue;
        }
        out.repaired.push(tool.name);
        out.tools.push({ ...tool, inputSchema: { type: 'object', ...given } } as unknown as UpstreamTool);
      }
      if (typeof page.nextCursor === 'string' && page.nextCursor !== '') out.nextCursor = page.nextCursor;
      return { value: out };
    },
  },
};
