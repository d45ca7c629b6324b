/**
 * Description linting (docs/security.md, "Tool pinning"): what in a server's text is aimed at the
 * model rather than at a reader. Everything a server lists reaches the model verbatim — a tool's
 * description and title, but also every string inside its schemas (`default`, `enum`, `const`,
 * `examples`, `$comment`, property names), its `_meta` and `icons`, a prompt's or resource's
 * description, the server's `instructions` — so a server can hide instructions anywhere there
 * ("tool poisoning"). Every string and every object key is normalised first (text-normalise.ts:
 * hidden characters out, NFKC, look-alike letters folded), then checked. Findings:
 *
 * - `INVISIBLE_CHARACTERS`: characters a reader does not see and a model reads (controls,
 *   zero-width, bidi controls, tag characters, stray variation selectors, fillers); the text they
 *   spell, when they encode one, is decoded and checked too;
 * - `CONFUSABLE_CHARACTERS`: a word mixing ASCII letters with look-alikes from another script;
 * - `INSTRUCTION_BLOCK`: an `<IMPORTANT>`-style tag, a chat-template token, or "ignore previous
 *   instructions";
 * - `MODEL_INSTRUCTION`: plain prose asking the model to read a credential file, hand over secrets
 *   or the conversation, send data to an outside address, or keep something from the user;
 * - `PADDED_DESCRIPTION`: 256 or more blank characters in a row, or one character repeated 256
 *   times — text pushed out of sight;
 * - `OVERLONG_DESCRIPTION`: a tool description over 8192 characters.
 * @module
 */
import { escapeForDisplay } from './display-escape.js';
import { findModelInstructions } from './model-instructions.js';
import { type NormalisedText, normaliseText } from './text-normalise.js';

/** What a finding is about. */
export type DescriptionFindingCode =
  | 'INVISIBLE_CHARACTERS'
  | 'CONFUSABLE_CHARACTERS'
  | 'INSTRUCTION_BLOCK'
  | 'MODEL_INSTRUCTION'
  | 'PADDED_DESCRIPTION'
  | 'OVERLONG_DESCRIPTION';

/** One finding: where (a JSON pointer into the linted value) and what. */
export interface DescriptionFinding {
  code: DescriptionFindingCode;
  pointer: string;
  message: string;
}

/** The longest tool description that is not a finding, in characters. */
export const MAX_DESCRIPTION_CHARACTERS = 8192;
/** The longest run of blank characters, or of one repeated character, that is not padding. */
export const MAX_PADDING_RUN = 255;

/** Whitespace, and the characters that show as nothing or as blank space. */
const _BLANK_RUN = new RegExp(
  `[\\s\\p{Cf}\\p{Co}\\u2800\\u3164\\u115F\\u1160\\uFFA0\\u034F]{${MAX_PADDING_RUN + 1},}`,
  'u',
);
const _REPEAT_RUN = new RegExp(`([^\\s])\\1{${MAX_PADDING_RUN},}`, 'u');
/** A data URL (an icon's image) is bytes, not text a model is asked to follow. */
const _DATA_URL = /^data:[\w.+-]+\/[\w.+-]+(?:;[\w=.+-]+)*;base64,/i;

/**
 * The findings of one tool definition as a server listed it: every string and object key in it,
 * at every depth (`name`, `title`, `description`, `annotations`, `inputSchema`, `outputSchema`,
 * `_meta`, `icons`, and anything else a server adds).
 */
export function lintToolDefinition(tool: Readonly<Record<string, unknown>>): DescriptionFinding[] {
  return lintListedValue(tool, { overlong: '/description' });
}

/**
 * The findings of anything else a server lists for clients — a prompt, a resource, a resource
 * template — checked like a tool (every string and key), or of a server's `instructions` (a string:
 * its pointer is `/instructions`).
 */
export function lintListedValue(value: unknown, options: { overlong?: string } = {}): DescriptionFinding[] {
  const findings: DescriptionFinding[] = [];
  for (const { pointer, text, key } of _strings(value)) {
    const where = key ? `the property name at ${pointer}` : pointer;
    findings.push(..._lintText(where, pointer, text));
    if (pointer === options.overlong && text.length > MAX_DESCRIPTION_CHARACTERS) {
      findings.push({
        code: 'OVERLONG_DESCRIPTION',
        pointer,
        message: `${where} is ${text.length} characters long; the limit is ${MAX_DESCRIPTION_CHARACTERS}`,
      });
    }
  }
  return findings;
}

/** The findings of one string (`where` names it in messages). */
function _lintText(where: string, pointer: string, text: string): DescriptionFinding[] {
  const findings: DescriptionFinding[] = [];
  const normal = normaliseText(text);
  if (normal.hidden.length > 0) {
    const first = normal.hidden[0]!;
    const count = normal.hidden.length;
    const spelt = normal.smuggled.map((s) => `; they spell ${_quote(s.text)} in ${s.via}`).join('');
    findings.push({
      code: 'INVISIBLE_CHARACTERS',
      pointer,
      message: `${where} holds ${count} invisible character${count === 1 ? '' : 's'} (the first ${_codePoint(first.codePoint)} at offset ${first.offset}) that a reader does not see and a model reads${spelt}`,
    });
  }
  if (normal.confusable.length > 0) {
    const { word, character, looksLike } = normal.confusable[0]!;
    findings.push({
      code: 'CONFUSABLE_CHARACTERS',
      pointer,
      message: `${where} disguises words with look-alike letters of another script: ${_quote(word)} has ${_codePoint(character.codePointAt(0)!)}, which looks like ${_quote(looksLike)}${normal.confusable.length > 1 ? ` (${normal.confusable.length} words)` : ''}`,
    });
  }
  findings.push(..._instructionFindings(where, pointer, normal));
  const padding = _DATA_URL.test(text) ? null : (_BLANK_RUN.exec(text) ?? _REPEAT_RUN.exec(text));
  if (padding) {
    findings.push({
      code: 'PADDED_DESCRIPTION',
      pointer,
      message: `${where} is padded: ${padding[0].length} ${padding[1] === undefined ? (/^\s+$/.test(padding[0]) ? 'whitespace characters' : 'blank characters') : `repetitions of ${_quote(padding[1])}`} in a row at offset ${padding.index} (the limit is ${MAX_PADDING_RUN})`,
    });
  }
  return findings;
}

/** INSTRUCTION_BLOCK and MODEL_INSTRUCTION, once each, in the visible text or in what hidden characters spell. */
function _instructionFindings(where: string, pointer: string, normal: NormalisedText): DescriptionFinding[] {
  const findings: DescriptionFinding[] = [];
  const seen = new Set<DescriptionFindingCode>();
  const readings: [string, string][] = [
    [normal.folded, ''],
    ...normal.smuggled.map((s): [string, string] => [s.text, ` in the text hidden in ${s.via}`]),
  ];
  for (const [read, origin] of readings) {
    for (const found of findModelInstructions(read)) {
      const code = found.family === 'block' ? 'INSTRUCTION_BLOCK' : 'MODEL_INSTRUCTION';
      if (seen.has(code)) continue;
      seen.add(code);
      findings.push({
        code,
        pointer,
        message:
          found.family === 'block'
            ? `${where} holds an instruction to the model (${_quote(read.slice(found.index, found.index + 60))} at offset ${found.index}${origin})`
            : `${where} holds ${found.what}${origin}: ${_quote(found.match.slice(0, 120))}`,
      });
    }
  }
  return findings;
}

/** A server's text quoted for a message: JSON string syntax, and nothing that acts on a terminal. */
function _quote(text: string): string {
  return escapeForDisplay(JSON.stringify(text));
}

function _codePoint(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Every string value and object key in `value`, with its JSON pointer, in document order. Iterative: schemas may be deep. */
function _strings(value: unknown): { pointer: string; text: string; key: boolean }[] {
  const out: { pointer: string; text: string; key: boolean }[] = [];
  const stack: { value: unknown; pointer: string; key?: string }[] = [{ value, pointer: '' }];
  while (stack.length > 0) {
    const { value: item, pointer, key } = stack.pop()!;
    if (key !== undefined) {
      out.push({ pointer, text: key, key: true });
    } else if (typeof item === 'string') {
      out.push({ pointer: pointer === '' ? '/instructions' : pointer, text: item, key: false });
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push({ value: item[i], pointer: `${pointer}/${i}` });
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [name, child] = entries[i]!;
        const at = `${pointer}/${escapeForDisplay(name.replace(/~/g, '~0').replace(/\//g, '~1'))}`;
        stack.push({ value: child, pointer: at });
        stack.push({ value: undefined, pointer: at, key: name });
      }
    }
  }
  return out;
}
