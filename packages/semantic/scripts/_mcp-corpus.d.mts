import type { ToolDocument } from '../src/search.js';
/** Every dev MCP tool as a ToolDocument, ids `<server file>/<tool>`. */
export declare function mcpDocuments(options?: { server?: boolean }): ToolDocument[];
