/**
 * The default wiring of the seams to the real packages: capability inference reads the verb with
 * `@xprotocol/semantic`'s `parseToolName` + `capabilityClassOf` (the one verb parser, DESIGN.md
 * §4). Until `@xprotocol/semantic` exports its annotator and `@xprotocol/gbnf` its compiler, the
 * default translation leaves `semantic` to the operator's overrides and records the grammar as
 * `not_compiled` (each contract says so in `gbnf_status`; nothing is silently invented).
 * @module
 */
import { capabilityClassOf, parseToolName } from '@xprotocol/semantic';
import type { Annotate, ClassifyToolName, CompileGrammar } from './seams.js';

/**
 * Classifies a tool name with the shared verb parser.
 * @example
 * classifyToolName('read_file'); // 'read'
 * classifyToolName('handle_thing'); // undefined
 */
export const classifyToolName: ClassifyToolName = (name) =>
  capabilityClassOf(parseToolName(name).verbClass) ?? undefined;

/** The seams used where a translation is given none; `undefined` means "not wired yet". */
export interface DefaultSeams {
  readonly classifyToolName: ClassifyToolName;
  readonly annotate: Annotate | undefined;
  readonly compileGrammar: CompileGrammar | undefined;
}

/** The default seams (see the module comment for what is wired). */
export const defaultSeams: DefaultSeams = Object.freeze({
  classifyToolName,
  annotate: undefined,
  compileGrammar: undefined,
});
