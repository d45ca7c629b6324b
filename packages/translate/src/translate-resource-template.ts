/**
 * One MCP resource template → one schema contract (docs/protocol.md §10.11): kind
 * `{namespace}.resource.{name}`, the payload an object of the template's variables (strings; those
 * outside query forms required, nothing else allowed), the response the MCP `ReadResourceResult`;
 * `source.uri_template` keeps the template, which a read expands with the payload. Reading needs
 * `{namespace}.mcp.resources.read`, the capability `resources/read` needs over `xp.mcp.request`.
 * @module
 */
import { _preview } from './_json-util.js';
import type { McpResourceTemplate, McpResourceTemplateSource, SchemaContract } from './contract.js';
import { _entryContract } from './entry-contract.js';
import { isJsonObject, type JsonObject } from './json.js';
import { resourceTemplateKind } from './kind.js';
import { readResourceResultSchema } from './response-schema.js';
import { checkJsonSafety } from './schema-safety.js';
import type { TranslatePromptContext } from './translate-prompt.js';
import type { Refusal, TranslationWarning } from './translation-report.js';
import { uriTemplateVariables } from './uri-template.js';

/**
 * Translates one MCP resource template, or refuses it with a reason (`INVALID_TOOL` for a
 * malformed entry or a text that is no RFC 6570 template, `INVALID_NAME` for a name without a kind).
 * @example
 * translateResourceTemplate({ name: 'note', uriTemplate: 'notes://{title}' },
 *   { server: 'docs', namespace: 'com.acme.docs', adapterVersion: '0.1.0' });
 * // { ok: true, contract: { kind: 'com.acme.docs.resource.note', ... } }
 */
export function translateResourceTemplate(
  value: unknown,
  ctx: TranslatePromptContext,
): { ok: true; contract: SchemaContract; warnings: TranslationWarning[] } | { ok: false; refusal: Refusal } {
  const label = isJsonObject(value) && typeof value.name === 'string' ? value.name : _preview(value);
  const refuse = (code: Refusal['code'], reason: string, pointer?: string) => {
    const refusal: Refusal = { tool: label, entry: 'resource_template', code, reason };
    if (pointer !== undefined) refusal.pointer = pointer;
    return { ok: false as const, refusal };
  };
  const json = checkJsonSafety(value);
  if (!json.ok) return refuse('UNSAFE_SCHEMA', json.reason, json.pointer);
  const template = _readTemplate(value);
  if (typeof template === 'string') return refuse('INVALID_TOOL', template);
  const kind = resourceTemplateKind(ctx.namespace, template.name);
  if (!kind.ok) return refuse('INVALID_NAME', kind.reason);
  const parsed = uriTemplateVariables(template.uriTemplate);
  if (!parsed.ok)
    return refuse('INVALID_TOOL', `uriTemplate: not an RFC 6570 URI template: ${parsed.reason}`);

  const properties: JsonObject = {};
  const required: string[] = [];
  for (const v of parsed.variables) {
    properties[v.name] = { type: 'string' };
    if (v.required) required.push(v.name);
  }
  const payload: JsonObject = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) payload.required = required;

  const source: McpResourceTemplateSource = {
    type: 'mcp_adapter',
    mcp_server: ctx.server,
    mcp_resource_template: template.name,
    uri_template: template.uriTemplate,
    namespace: ctx.namespace,
    adapter_version: ctx.adapterVersion,
  };
  if (template.title !== undefined) source.title = template.title;
  if (template.mimeType !== undefined) source.mimeType = template.mimeType;
  const built = _entryContract(
    {
      kind: kind.kind,
      name: template.name,
      namespace: ctx.namespace,
      description: template.description,
      title: template.title,
      source,
      payload,
      response: readResourceResultSchema(),
      capability: `${ctx.namespace}.mcp.resources.read`,
    },
    ctx.seams,
  );
  return { ok: true, ...built };
}

function _readTemplate(value: unknown): McpResourceTemplate | string {
  if (!isJsonObject(value)) return `expected a resource template object, got ${_preview(value)}`;
  if (typeof value.name !== 'string') return `name: expected a string, got ${_preview(value.name)}`;
  if (typeof value.uriTemplate !== 'string')
    return `uriTemplate: expected a string, got ${_preview(value.uriTemplate)}`;
  const template: McpResourceTemplate = { name: value.name, uriTemplate: value.uriTemplate };
  for (const field of ['title', 'description', 'mimeType'] as const) {
    const text = value[field];
    if (text === undefined) continue;
    if (typeof text !== 'string') return `${field}: expected a string, got ${_preview(text)}`;
    template[field] = text;
  }
  return template;
}
