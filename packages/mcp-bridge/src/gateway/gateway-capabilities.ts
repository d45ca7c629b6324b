/**
 * What the face advertises in gateway mode: what the upstreams offer. Tools are always there
 * (the face lists them and says when they change); resources, prompts, logging and completions
 * appear when at least one upstream has them, with `subscribe` and `listChanged` when at least
 * one of those upstreams has them.
 * @module
 */
import type { ServerCapabilities } from '@modelcontextprotocol/server';

/** The face's capabilities over upstreams with `upstreams` capabilities (unknown ones skipped). */
export function _gatewayCapabilities(
  upstreams: readonly (ServerCapabilities | undefined)[],
): ServerCapabilities {
  const known = upstreams.filter((c): c is ServerCapabilities => c !== undefined);
  const capabilities: ServerCapabilities = { tools: { listChanged: true } };
  const withResources = known.filter((c) => c.resources !== undefined);
  if (withResources.length > 0) {
    capabilities.resources = {
      ...(withResources.some((c) => c.resources?.subscribe) && { subscribe: true }),
      ...(withResources.some((c) => c.resources?.listChanged) && { listChanged: true }),
    };
  }
  const withPrompts = known.filter((c) => c.prompts !== undefined);
  if (withPrompts.length > 0) {
    capabilities.prompts = withPrompts.some((c) => c.prompts?.listChanged) ? { listChanged: true } : {};
  }
  if (known.some((c) => c.logging !== undefined)) capabilities.logging = {};
  if (known.some((c) => c.completions !== undefined)) capabilities.completions = {};
  return capabilities;
}
