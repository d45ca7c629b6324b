/**
 * The seams where other packages plug into a translation: semantic annotations (docs/design.md §7,
 * from `@xprotocol/semantic`), the GBNF grammar (docs/design.md §5, from `@xprotocol/gbnf`) and the
 * verb parser behind capability inference (docs/design.md §4: one parser, shared with `semantic`).
 * Each is a plain function so a caller (or a test) can supply its own.
 * @module
 */
import type { CompiledGrammar } from '@xprotocol/gbnf';
import type { CapabilityClass } from '@xprotocol/semantic';
import type { McpTool } from './contract.js';
import type { JsonObject, JsonSchema } from './json.js';

/** A sibling tool of the same source, as the annotator sees it (for `related_schemas`). */
export interface SiblingTool {
  readonly name: string;
  readonly kind: string;
  readonly description?: string;
}

/** What the annotator is given for one tool. */
export interface AnnotateInput {
  readonly kind: string;
  readonly namespace: string;
  /** The tool with any `schema_overrides` description already applied. */
  readonly tool: McpTool;
  /** Every tool of the source that translates (this one included), sorted by kind. */
  readonly siblings: readonly SiblingTool[];
  /** `schema_overrides.<tool>.semantic`, when the operator gave one. */
  readonly override?: JsonObject | undefined;
}

/**
 * Produces the `semantic` field of a contract (docs/design.md §7). Must be deterministic and return
 * plain JSON. The translator also merges the operator's override on top of the result (overrides
 * always win) and then sets `auto_generated: false` when the result carries that flag.
 */
export type Annotate = (input: AnnotateInput) => JsonObject;

/**
 * Compiles a payload schema to GBNF (`@xprotocol/gbnf`'s `compileSchema` by default); throws when
 * it cannot (the failure is recorded, not fatal). `exact` is false when the grammar narrows or
 * widens the schema somewhere (`warnings` say where).
 */
export type CompileGrammar = (schema: JsonSchema) => Pick<CompiledGrammar, 'gbnf' | 'exact' | 'warnings'>;

/**
 * What capability inference concludes (docs/translation.md, "Capabilities"): a verb's
 * `@xprotocol/semantic` `CapabilityClass`, or `access` when neither verb nor hint says anything.
 */
export type InferredCapabilityClass = CapabilityClass | 'access';

/**
 * Classifies a tool name by its verb with the shared verb parser; `undefined` when no verb of the
 * §4.3 table matches. (Wired to `@xprotocol/semantic`'s `parseToolName` + `capabilityClassOf`.)
 */
export type ClassifyToolName = (name: string) => CapabilityClass | undefined;

/** The seams of one translation; each is optional and falls back to {@link defaultSeams}. */
export interface TranslationSeams {
  readonly annotate?: Annotate | undefined;
  readonly compileGrammar?: CompileGrammar | undefined;
  readonly classifyToolName?: ClassifyToolName | undefined;
}
