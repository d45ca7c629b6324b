/**
 * Schema contract → MCP tool (docs/design.md §3, Direction 2): the name from {@link
 * assignMcpToolNames}, the description with a provenance note `\n\n[XProtocol: {kind} via
 * {endpoint}]`, `inputSchema` = the payload. MCP requires tool arguments to be an object: a payload
 * without `type` gets `type: "object"` (the only change made); a payload of another type is
 * refused.
 * @module
 */
import { _cloneJson, _preview } from './_json-util.js';
import type { ContractLike } from './contract.js';
import { isJsonObject, type JsonObject } from './json.js';
import { isContractKind } from './kind.js';

/** An MCP tool definition as `tools/list` lists it. */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: JsonObject;
}

/**
 * The provenance note appended to a description.
 * @example
 * provenanceNote('weather.current.get', 'xp://weather.example.com');
 * // '[XProtocol: weather.current.get via xp://weather.example.com]'
 */
export function provenanceNote(kind: string, endpoint: string): string {
  return `[XProtocol: ${kind} via ${endpoint}]`;
}

/**
 * Makes the MCP tool for a contract.
 * @param endpoint how the endpoint is configured: `xp://host` or its `ed25519:` key
 * @example
 * contractToMcpTool(contract, { name: 'weather_current_get', endpoint: 'xp://weather.example.com' });
 */
export function contractToMcpTool(
  contract: ContractLike,
  options: { name: string; endpoint: string },
): { ok: true; tool: McpToolDefinition } | { ok: false; reason: string } {
  if (!isContractKind(contract.kind))
    return { ok: false, reason: `kind: expected a valid kind, got ${_preview(contract.kind)}` };
  const payload = contract.payload;
  if (!isJsonObject(payload)) {
    return {
      ok: false,
      reason: `${contract.kind}: payload must be an object schema to become an MCP inputSchema, got ${_preview(payload)}`,
    };
  }
  let inputSchema = _cloneJson(payload);
  if (payload.type === undefined) inputSchema = { type: 'object', ...inputSchema };
  else if (payload.type !== 'object') {
    return {
      ok: false,
      reason: `${contract.kind}: MCP tool arguments are an object, but the payload's type is ${_preview(payload.type)}`,
    };
  }
  const note = provenanceNote(contract.kind, options.endpoint);
  const description =
    typeof contract.description === 'string' && contract.description !== ''
      ? `${contract.description}\n\n${note}`
      : note;
  const tool: McpToolDefinition = { name: options.name, description, inputSchema };
  const title = contract.title ?? contract.source?.title;
  if (typeof title === 'string') tool.title = title;
  const out = contract.source?.outputSchema;
  if (isJsonObject(out) && out.type === 'object') tool.outputSchema = _cloneJson(out);
  const annotations = contract.source?.annotations;
  if (isJsonObject(annotations)) tool.annotations = _cloneJson(annotations);
  return { ok: true, tool };
}
