/**
 * One MCP prompt → one schema contract (docs/design.md §6): kind `{namespace}.prompt.{name}`, the
 * payload an object of the prompt's string arguments (the required ones required, nothing else
 * allowed), the response the MCP `GetPromptResult`. Fetching a prompt reads it: the capability
 * class is `read`.
 * @module
 */
import { _preview } from './_json-util.js';
import type { CapabilityInferenceMode } from './capability-inference.js';
import type { McpPrompt, McpPromptSource, SchemaContract } from './contract.js';
import { defaultSeams } from './defaults.js';
import { xpErrorPayloadSchema } from './error-map.js';
import { isJsonObject, type JsonObject } from './json.js';
import { promptKind, resultKind } from './kind.js';
import { getPromptResultSchema } from './response-schema.js';
import { checkJsonSafety } from './schema-safety.js';
import type { TranslationSeams } from './seams.js';
import { _grammar } from './translate-tool.js';
import type { Refusal, TranslationWarning } from './translation-report.js';

/** Context of a prompt's translation (a subset of the tool context). */
export interface TranslatePromptContext {
  readonly server: string;
  readonly namespace: string;
  readonly adapterVersion: string;
  readonly capabilityInference?: CapabilityInferenceMode | undefined;
  readonly capabilities?: readonly string[] | undefined;
  /** Only `compileGrammar` is used (prompts have no verb to parse and no annotation). */
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

  let capability = `${ctx.namespace}.read`;
  if (ctx.capabilityInference === 'explicit') {
    const matches = (ctx.capabilities ?? []).filter((cap) => cap.split('.').pop() === 'read');
    if (matches.length !== 1) {
      return refuse(
        'CAPABILITY_UNMAPPED',
        `prompt ${JSON.stringify(prompt.name)} needs a "read" capability but capability_inference: explicit lists ${matches.length === 0 ? 'none ending in ".read"' : `several (${matches.join(', ')})`}`,
      );
    }
    capability = matches[0] as string;
  }

  const properties: JsonObject = {};
  const required: string[] = [];
  for (const arg of prompt.arguments ?? []) {
    properties[arg.name] =
      arg.description !== undefined ? { type: 'string', description: arg.description } : { type: 'string' };
    if (arg.required === true) required.push(arg.name);
  }
  const payload: JsonObject = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) payload.required = required;

  const warnings: TranslationWarning[] = [];
  const grammar = _grammar(
    payload,
    ctx.seams?.compileGrammar ?? defaultSeams.compileGrammar,
    (code, message) => {
      warnings.push({ tool: prompt.name, code, message });
    },
  );

  const source: McpPromptSource = {
    type: 'mcp_adapter',
    mcp_server: ctx.server,
    mcp_prompt: prompt.name,
    namespace: ctx.namespace,
    adapter_version: ctx.adapterVersion,
  };
  if (prompt.title !== undefined) source.title = prompt.title;
  const contract: SchemaContract = {
    kind: kind.kind,
    version: '1.0.0',
    description: prompt.description ?? '',
    ...(prompt.title !== undefined ? { title: prompt.title } : {}),
    source,
    payload,
    response: { kind: resultKind(kind.kind), payload: getPromptResultSchema() },
    error_response: { kind: 'xp.error', payload: xpErrorPayloadSchema() },
    auth: { required_capability: capability },
    gbnf_grammar: grammar.gbnf,
    gbnf_status: grammar.status,
  };
  return { ok: true, contract, warnings };
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
