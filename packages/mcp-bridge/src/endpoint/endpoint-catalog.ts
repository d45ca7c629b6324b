/**
 * What the inbound endpoint needs to know about the tools it serves: a small interface the
 * adapter's registry fills, so the endpoint's pipeline does not depend on how the catalog is kept.
 * @module
 */
import type { CatalogPage } from '@xprotocol/registry';
import type { SchemaContract } from '@xprotocol/translate';
import type { ArgumentCheck } from '../policy/argument-validator.js';

/**
 * What a served kind calls upstream besides a tool (docs/protocol.md §10.11): a prompt
 * (`prompts/get` with the payload as its arguments) or a resource template (`resources/read` of
 * the template expanded with the payload).
 */
export type EndpointEntry = { type: 'prompt' } | { type: 'resource_template'; uriTemplate: string };

/** A served tool: its contract, where it lives upstream, and its compiled argument validator. */
export interface EndpointTool {
  contract: SchemaContract;
  /** The `mcp_sources[].name` whose session runs it. */
  source: string;
  /** The tool's (prompt's, resource template's) name on the upstream server. */
  upstreamName: string;
  /** Absent for a tool. */
  entry?: EndpointEntry;
  /** Validates call arguments against `contract.payload`. */
  validate(payload: unknown): ArgumentCheck;
}

/** The endpoint's view of the registry. */
export interface EndpointCatalog {
  /** The tool (or prompt, or resource template) for `kind`, if served. */
  tool(kind: string): EndpointTool | undefined;
  /**
   * The tool for `kind` as its server offers it to MCP 2026-07-28 clients, when that is another
   * (docs/protocol.md §10.8, `revisions`): a tool only they are offered, or another definition of
   * one. A call whose caller acts for such a client is checked and run by it. Absent or undefined:
   * those clients get {@link tool}'s.
   */
  modernTool?(kind: string): EndpointTool | undefined;
  /**
   * A page of the catalog for a request payload (`{cursor?, limit?, kinds?, revision?}`, or undefined);
   * throws an error whose message says what is wrong with the request.
   */
  page(request: unknown): CatalogPage;
  /**
   * Ranked matches for an `xp.schema.describe` query (docs/design.md §7); throws an error whose
   * message says what is wrong with the query.
   */
  describe(query: unknown): { kind: string; relevance: number; use_when: string }[];
}
