/**
 * One MCP prompt → one schema contract (docs/protocol.md §10.11): kind `{namespace}.prompt.{name}`,
 * the payload an object of the prompt's string arguments (the required ones required, nothing else
 * allowed), the response the MCP `GetPromptResult`. Getting it needs
 * `{namespace}.mcp.prompts.get`, the capability `prompts/get` needs over `xp.mcp.request`, so a
 * grant opens a prompt the same whichever way it is asked for.
 * @module
 */
import { _preview } from './_json-util.js';
import type { McpPrompt, McpPromptSource, SchemaContract } from './contract.js';
import { _entryContract } from './entry-contract.js';
import { isJsonObject, type JsonObject } from './json.js';
import { promptKind } from './kind.js';
import { getPromptResultSchema } from './response-schema.js';
import { checkJsonSafety } from './schema-safety.js';
import type { TranslationSeams } from './seams.js';
import type { Refusal, TranslationWarning } from './translation-report.js';

/** Context of a prompt's (or resource template's) translation. */
export interface TranslatePromptContext {
  readonly server: string;
  readonly namespace: string;
  readonly adapterVersion: string;
  /** `annotate` and `compileGrammar` are used (there is no verb to infer a capability from). */
  readonly seams?: TranslationSeams | undefined;
}

/**
 * Translates one MCP prompt, or refuses it with a reason.
 * @example
 * translatePrompt({ name: 'summarize', arguments: [{ name: 'text', required: true }] },
 *   { server: 'docs', namespace: 'com.acme.docs', adapterVersion: '0.1.0' });
 * // { ok: true, contract: { kind: 'com.acme.docs.prompt.summarize', ... } }
 */
export function translatePrompt(
  value: unknown,
  ctx: TranslatePromptContext,
): { ok: true; contract: SchemaContract; warnings: TranslationWarning[] } | { ok: false; refusal: Refusal } {
  const label = isJsonObject(value) && typeof value.name === 'string' ? value.name : _preview(value);
  const refuse = (code: Refusal['code'], reason: string, pointer?: string) => {
    const refusal: Refusal = { tool: label, entry: 'prompt', code, reason };
    if (pointer !== undefined) refusal.pointer = pointer;
    return { ok: false as const, refusal };
  };
  const json = checkJsonSafety(value);
  if (!json.ok) return refuse('UNSAFE_SCHEMA', json.reason, json.pointer);
  const prompt = _readPrompt(value);
  if (typeof prompt === 'string') return refuse('INVALID_TOOL', prompt);
  const kind = promptKind(ctx.namespace, prompt.name);
  if (!kind.ok) return refuse('INVALID_NAME', kind.reason);

  const properties: JsonObject = {};
  const required: string[] = [];
  for (const arg of prompt.arguments ?? []) {
    properties[arg.name] =
      arg.description !== undefined ? { type: 'string', description: arg.description } : { type: 'string' };
    if (arg.required === true) required.push(arg.name);
  }
  const payload: JsonObject = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) payload.required = required;

  const source: McpPromptSource = {
    type: 'mcp_adapter',
    mcp_server: ctx.server,
    mcp_prompt: prompt.name,
    namespace: ctx.namespace,
    adapter_version: ctx.adapterVersion,
  };
  if (prompt.title !== undefined) source.title = prompt.title;
  const built = _entryContract(
    {
      kind: kind.kind,
      name: prompt.name,
      namespace: ctx.namespace,
      description: prompt.description,
      title: prompt.title,
      source,
      payload,
      response: getPromptResultSchema(),
      capability: `${ctx.namespace}.mcp.prompts.get`,
    },
    ctx.seams,
  );
  return { ok: true, ...built };
}

function _readPrompt(value: unknown): McpPrompt | string {
  if (!isJsonObject(value)) return `expected a prompt object, got ${_preview(value)}`;
  if (typeof value.name !== 'string') return `name: expected a string, got ${_preview(value.name)}`;
  const prompt: McpPrompt = { name: value.name };
  if (value.title !== undefined) {
    if (typeof value.title !== 'string') return `title: expected a string, got ${_preview(value.title)}`;
    prompt.title = value.title;
  }
  if (value.description !== undefined) {
    if (typeof value.description !== 'string')
      return `description: expected a string, got ${_preview(value.description)}`;
    prompt.description = value.description;
  }
  if (value.arguments !== undefined) {
    if (!Array.isArray(value.arguments))
      return `arguments: expected an array, got ${_preview(value.arguments)}`;
    const seen = new Set<string>();
    prompt.arguments = [];
    for (const [i, arg] of value.arguments.entries()) {
      if (!isJsonObject(arg) || typeof arg.name !== 'string' || arg.name === '') {
        return `arguments[${i}]: expected {name: non-empty string, description?, required?}, got ${_preview(arg)}`;
      }
      if (seen.has(arg.name)) return `arguments[${i}]: duplicate argument name ${JSON.stringify(arg.name)}`;
      seen.add(arg.name);
      const out: { name: string; description?: string; required?: boolean } = { name: arg.name };
      if (typeof arg.description === 'string') out.description = arg.description;
      if (arg.required === true) out.required = true;
      prompt.arguments.push(out);
    }
  }
  return prompt;
}
