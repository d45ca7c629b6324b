/**
 * The contract of an MCP entry that is not a tool (a prompt or a resource template,
 * docs/protocol.md §10.11): the same fields and key order as a tool's contract, annotated through
 * the `annotate` seam (the entry alone, named by its MCP name) and with a grammar through the
 * `compileGrammar` seam. Shared by `translate-prompt.ts` and `translate-resource-template.ts`.
 * @module
 */
import type { McpPromptSource, McpResourceTemplateSource, SchemaContract } from './contract.js';
import { defaultSeams } from './defaults.js';
import { xpErrorPayloadSchema } from './error-map.js';
import type { JsonObject } from './json.js';
import { resultKind } from './kind.js';
import { checkJsonSafety } from './schema-safety.js';
import type { TranslationSeams } from './seams.js';
import { _grammar } from './translate-tool.js';
import type { TranslationWarning } from './translation-report.js';

/** What differs between a prompt's and a resource template's contract. */
export interface _EntryParts {
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  readonly description: string | undefined;
  readonly title: string | undefined;
  readonly source: McpPromptSource | McpResourceTemplateSource;
  readonly payload: JsonObject;
  readonly response: JsonObject;
  readonly capability: string;
}

/** Builds the contract and collects its warnings (a failed annotation or grammar is a warning). */
export function _entryContract(
  parts: _EntryParts,
  seams: TranslationSeams | undefined,
): { contract: SchemaContract; warnings: TranslationWarning[] } {
  const warnings: TranslationWarning[] = [];
  const warn = (code: TranslationWarning['code'], message: string) => {
    warnings.push({ tool: parts.name, code, message });
  };
  const description = parts.description ?? '';
  const semantic = _annotateEntry(parts, description, seams, warn);
  const grammar = _grammar(parts.payload, seams?.compileGrammar ?? defaultSeams.compileGrammar, warn);
  const contract: SchemaContract = {
    kind: parts.kind,
    version: '1.0.0',
    description,
    ...(parts.title !== undefined ? { title: parts.title } : {}),
    ...(semantic !== undefined ? { semantic } : {}),
    source: parts.source,
    payload: parts.payload,
    response: { kind: resultKind(parts.kind), payload: parts.response },
    error_response: { kind: 'xp.error', payload: xpErrorPayloadSchema() },
    auth: { required_capability: parts.capability },
    gbnf_grammar: grammar.gbnf,
    gbnf_status: grammar.status,
  };
  return { contract, warnings };
}

/** The entry's semantic annotations, as a tool of that name and payload would get them alone. */
function _annotateEntry(
  parts: _EntryParts,
  description: string,
  seams: TranslationSeams | undefined,
  warn: (code: TranslationWarning['code'], message: string) => void,
): JsonObject | undefined {
  const annotate = seams?.annotate ?? defaultSeams.annotate;
  if (annotate === undefined) return undefined;
  try {
    const semantic = annotate({
      kind: parts.kind,
      namespace: parts.namespace,
      tool: { name: parts.name, description, inputSchema: parts.payload },
      siblings: [{ name: parts.name, kind: parts.kind, description }],
    });
    const json = checkJsonSafety(semantic);
    if (!json.ok) throw new Error(`the annotation is not plain JSON at ${json.pointer}: ${json.reason}`);
    return semantic;
  } catch (error) {
    warn(
      'ANNOTATE_FAILED',
      `semantic annotation failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}
