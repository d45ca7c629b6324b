import type { ToolDocument } from '../src/search.js';
/** The dev MCP tools, once per copy (default 5), each copy under its own namespace. */
export declare function benchDocuments(copies?: number): ToolDocument[];
/** 10 agent-style intents and every 100th MetaTool single-tool query. */
export declare function benchQueries(): string[];
