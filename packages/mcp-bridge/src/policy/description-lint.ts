/**
 * Description linting (docs/security.md, "Tool pinning"): what in a tool's text is aimed at the
 * model rather than at a reader. A tool's description, title and the descriptions and titles in
 * its schemas reach the model verbatim, so a server can hide instructions there ("tool
 * poisoning"). Four findings:
 *
 * - `INVISIBLE_CHARACTERS`: zero-width, bidirectional-control, tag (U+E0000–U+E007F) and other
 *   format characters a reader does not see but a model reads (emoji variation selectors, which
 *   real descriptions use, are not among them);
 * - `INSTRUCTION_BLOCK`: an `<IMPORTANT>`, `<SYSTEM>`, `<INSTRUCTIONS>` or `<CRITICAL>` tag, or
 *   "ignore (all) previous instructions";
 * - `PADDED_DESCRIPTION`: 256 or more whitespace characters in a row, or one character repeated
 *   256 times — text pushed out of sight;
 * - `OVERLONG_DESCRIPTION`: a tool description over 8192 characters.
 * @module
 */

/** What a finding is about. */
export type DescriptionFindingCode =
  | 'INVISIBLE_CHARACTERS'
  | 'INSTRUCTION_BLOCK'
  | 'PADDED_DESCRIPTION'
  | 'OVERLONG_DESCRIPTION';

/** One finding: where (a JSON pointer into the tool) and what. */
export interface DescriptionFinding {
  code: DescriptionFindingCode;
  pointer: string;
  message: string;
}

/** The longest tool description that is not a finding, in characters. */
export const MAX_DESCRIPTION_CHARACTERS = 8192;
/** The longest run of whitespace, or of one repeated character, that is not padding. */
export const MAX_PADDING_RUN = 255;

const _INVISIBLE =
  /[\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\u{E0000}-\u{E007F}]|\u034F/gu;
const _INSTRUCTION =
  /<\s*\/?\s*(important|system|instructions?|critical)\b[^>]{0,200}>|\bignore\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above)\s+instructions\b/i;
const _WHITESPACE_RUN = new RegExp(`\\s{${MAX_PADDING_RUN + 1},}`);
const _REPEAT_RUN = new RegExp(`([^\\s])\\1{${MAX_PADDING_RUN},}`, 'u');

/**
 * The findings of one tool definition as a server listed it (`description`, `title`,
 * `annotations.title`, and every `description`/`title` string in `inputSchema`/`outputSchema`).
 */
export function lintToolDefinition(tool: Readonly<Record<string, unknown>>): DescriptionFinding[] {
  const findings: DescriptionFinding[] = [];
  for (const { pointer, text } of _texts(tool)) {
    const invisible = [...text.matchAll(_INVISIBLE)];
    if (invisible.length > 0) {
      const first = invisible[0]!;
      findings.push({
        code: 'INVISIBLE_CHARACTERS',
        pointer,
        message: `${pointer} holds ${invisible.length} invisible character${invisible.length === 1 ? '' : 's'} (the first ${_codePoint(first[0])} at offset ${first.index}) that a reader does not see and a model reads`,
      });
    }
    const instruction = _INSTRUCTION.exec(text);
    if (instruction) {
      findings.push({
        code: 'INSTRUCTION_BLOCK',
        pointer,
        message: `${pointer} holds an instruction to the model (${JSON.stringify(instruction[0].slice(0, 60))} at offset ${instruction.index})`,
      });
    }
    const padding = _WHITESPACE_RUN.exec(text) ?? _REPEAT_RUN.exec(text);
    if (padding) {
      findings.push({
        code: 'PADDED_DESCRIPTION',
        pointer,
        message: `${pointer} is padded: ${padding[0].length} ${/^\s/.test(padding[0]) ? 'whitespace characters' : `repetitions of ${JSON.stringify(padding[1])}`} in a row at offset ${padding.index} (the limit is ${MAX_PADDING_RUN})`,
      });
    }
    if (pointer === '/description' && text.length > MAX_DESCRIPTION_CHARACTERS) {
      findings.push({
        code: 'OVERLONG_DESCRIPTION',
        pointer,
        message: `${pointer} is ${text.length} characters long; the limit is ${MAX_DESCRIPTION_CHARACTERS}`,
      });
    }
  }
  return findings;
}

function _codePoint(text: string): string {
  return `U+${text.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Every text of the tool a model reads, with its pointer. Iterative: schemas may be deep. */
function _texts(tool: Readonly<Record<string, unknown>>): { pointer: string; text: string }[] {
  const out: { pointer: string; text: string }[] = [];
  for (const key of ['description', 'title'] as const) {
    if (typeof tool[key] === 'string') out.push({ pointer: `/${key}`, text: tool[key] });
  }
  const annotations = tool.annotations as { title?: unknown } | undefined;
  if (typeof annotations?.title === 'string')
    out.push({ pointer: '/annotations/title', text: annotations.title });
  const stack: { value: unknown; pointer: string }[] = [];
  for (const key of ['inputSchema', 'outputSchema']) stack.push({ value: tool[key], pointer: `/${key}` });
  while (stack.length > 0) {
    const { value, pointer } = stack.pop()!;
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        stack.push({ value: item, pointer: `${pointer}/${i}` });
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if ((key === 'description' || key === 'title') && typeof child === 'string') {
          out.push({ pointer: at, text: child });
        } else {
          stack.push({ value: child, pointer: at });
        }
      }
    }
  }
  return out;
}
