/**
 * One `mcp_sources` entry as the bridge and translate need it: the upstream transport, and the
 * translation of what its server lists (overrides, capability inference, allowlist and the
 * description-quality threshold and floor of the entry). Used by the runtime and by the
 * `schemas`, `test-mcp` and `validate --connect` commands, so they publish exactly the same.
 * @module
 */
import {
  lintListedValue,
  OpenApiService,
  type UpstreamSession,
  type UpstreamTokenStore,
  type UpstreamTransport,
} from '@xprotocol/mcp-bridge';
import type { AddressPolicy } from '@xprotocol/relay-client';
import { type SourceTranslation, type ToolOverride, translateSource } from '@xprotocol/translate';
import type { McpSourceConfig } from '../config/index.js';
import { ADAPTER_VERSION } from '../version.js';
import { upstreamOAuthOf } from './upstream-oauth.js';

/**
 * How to reach the source's server. With `addressPolicy`, a host name in an HTTP URL is resolved
 * through it (docs/security.md, "Outbound addresses"); with `auth.type: oauth`, the adapter's
 * OAuth client of the source puts its tokens on every request (grants kept in `oauthStore`).
 */
export function upstreamTransportOf(
  source: McpSourceConfig,
  addressPolicy?: AddressPolicy,
  oauthStore?: UpstreamTokenStore,
): UpstreamTransport {
  // A 2026-07-28 server is spoken to in its revision (docs/architecture.md, "Two MCP revisions");
  // every session with it is held to the source's connect timeout.
  const linkOptions = {
    ...(source.mcpRevision !== '2025-11-25' && { revision: source.mcpRevision }),
    connectTimeoutMs: source.connectTimeoutMs,
  };
  if (source.transport === 'stdio')
    return { type: 'stdio', command: source.command ?? [], env: source.env, ...linkOptions };
  if (source.transport === 'openapi') return _openApiTransport(source, addressPolicy);
  const oauth = upstreamOAuthOf(source, addressPolicy, oauthStore);
  return {
    type: source.transport,
    ...linkOptions,
    url: source.url ?? '',
    ...(source.bearerToken !== undefined && { bearerToken: source.bearerToken }),
    ...(addressPolicy && { addressPolicy }),
    ...(oauth && { oauth }),
  };
}

/**
 * An OpenAPI source as an in-process upstream: one {@link OpenApiService} per call of this
 * function (the adapter's own session keeps one, and gateway links reuse that session's transport),
 * its calls held to the source's timeout and the address policy.
 */
function _openApiTransport(source: McpSourceConfig, addressPolicy?: AddressPolicy): UpstreamTransport {
  const settings = source.openapi;
  if (!settings) throw new Error(`internal: openapi source ${source.name} without its settings`);
  const service = new OpenApiService({
    name: source.name,
    document: settings.document,
    ...(settings.operations && { operations: settings.operations }),
    ...(settings.baseUrl !== undefined && { baseUrl: settings.baseUrl }),
    serverVariables: settings.serverVariables,
    credentials: settings.credentials,
    ...(addressPolicy && { addressPolicy }),
    ...(source.callTimeouts.defaultMs !== undefined && { timeoutMs: source.callTimeouts.defaultMs }),
    maxResponseBytes: settings.maxResponseBytes,
  });
  return {
    type: 'in_process',
    connect: () => service.connect(),
    describe: `the OpenAPI document ${settings.document}`,
  };
}

/** A source's prompts and resource templates, which become contracts beside its tools. */
export interface ListedEntries {
  prompts: readonly unknown[];
  resourceTemplates: readonly unknown[];
}

/**
 * The prompts and resource templates the source's server lists, for their contracts
 * (docs/protocol.md §10.11). What description linting flags is left out unless the source says
 * `description_lint: warn`, as on the `xp.mcp.request` path (docs/security.md, "Tool pinning"):
 * a contract must not bring back what a listing withholds. `onFailure` hears a listing that
 * failed; the tools are published without those entries.
 */
export async function listEntries(
  source: McpSourceConfig,
  upstream: UpstreamSession,
  onFailure: (what: string, error: unknown) => void,
): Promise<ListedEntries> {
  const admitted = (entries: Record<string, unknown>[]) =>
    source.descriptionLint === 'warn' ? entries : entries.filter((e) => lintListedValue(e).length === 0);
  const listed = async (what: string, list: () => Promise<Record<string, unknown>[]>) => {
    try {
      return admitted(await list());
    } catch (error) {
      onFailure(what, error);
      return [];
    }
  };
  return {
    prompts: await listed('prompts/list', () => upstream.listPrompts()),
    resourceTemplates: await listed('resources/templates/list', () => upstream.listResourceTemplates()),
  };
}

/** Translates the tools (and prompts and resource templates) the source's server listed, by the entry's settings. */
export function translateConfiguredSource(
  source: McpSourceConfig,
  tools: readonly unknown[],
  entries: ListedEntries = { prompts: [], resourceTemplates: [] },
): SourceTranslation {
  return translateSource({
    name: source.name,
    namespace: source.namespace,
    tools,
    prompts: entries.prompts,
    resourceTemplates: entries.resourceTemplates,
    // Overrides come from YAML, so every value in them is JSON.
    overrides: source.schemaOverrides as Record<string, ToolOverride>,
    capabilityInference: source.capabilityInference,
    capabilities: source.capabilities,
    allowlist: source.toolAllowlist,
    adapterVersion: ADAPTER_VERSION,
    descriptionQualityThreshold: source.descriptionQualityThreshold,
    descriptionQualityFloor: source.descriptionQualityFloor,
  });
}
