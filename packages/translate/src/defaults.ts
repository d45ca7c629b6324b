/**
 * The default wiring of the seams to the real packages: capability inference reads the verb with
 * `@xprotocol/semantic`'s `parseToolName` + `capabilityClassOf` (the one verb parser,
 * docs/design.md §4); annotations come from its `annotateTool`; grammars from `@xprotocol/gbnf`'s
 * `compileSchema`.
 * @module
 */
import { compileSchema } from '@xprotocol/gbnf';
import { annotateTool, capabilityClassOf, parseToolName, type SemanticOverrides } from '@xprotocol/semantic';
import type { JsonObject } from './json.js';
import type { Annotate, ClassifyToolName, CompileGrammar } from './seams.js';

/**
 * Classifies a tool name with the shared verb parser.
 * @example
 * classifyToolName('read_file'); // 'read'
 * classifyToolName('handle_thing'); // undefined
 */
export const classifyToolName: ClassifyToolName = (name) =>
  capabilityClassOf(parseToolName(name).verbClass) ?? undefined;

/**
 * Annotates a tool with `@xprotocol/semantic`'s `annotateTool` (docs/design.md §7): intent verbs,
 * data subjects, domain, related schemas, use / do-not-use sentences, description quality score.
 */
export const semanticAnnotate: Annotate = ({ tool, siblings, namespace, override }) =>
  annotateTool(tool, siblings, namespace, override as SemanticOverrides | undefined) as unknown as JsonObject;

/**
 * Compiles a payload schema to GBNF with `@xprotocol/gbnf`'s `compileSchema` (docs/design.md §5),
 * default options: where it cannot be exact it narrows (every document the grammar accepts is
 * valid) and says so in `warnings`; it throws `GbnfCompileError` when it cannot compile at all.
 */
export const gbnfCompileGrammar: CompileGrammar = (schema) => {
  const compiled = compileSchema(schema);
  return { gbnf: compiled.gbnf, exact: compiled.exact, warnings: compiled.warnings };
};

/** The seams used where a translation is given none; `undefined` means "not wired yet". */
export interface DefaultSeams {
  readonly classifyToolName: ClassifyToolName;
  readonly annotate: Annotate | undefined;
  readonly compileGrammar: CompileGrammar | undefined;
}

/** The default seams (see the module comment for what is wired). */
export const defaultSeams: DefaultSeams = Object.freeze({
  classifyToolName,
  annotate: semanticAnnotate,
  compileGrammar: gbnfCompileGrammar,
});
