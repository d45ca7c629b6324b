/**
 * Honest results (docs/architecture.md, "Honest results"): a client may show a model both
 * `content[]` and `structuredContent`, so neither is described as hidden. When the text of a tool
 * result's `content[]` is over the face's bound, `content[]` carries a summary within the bound —
 * the text's beginning, how much was left out, and where the rest is and how to ask for less —
 * and the whole result is kept in `structuredContent` (the tool's own, or `{content}` when it
 * had none).
 * @module
 */

/** The default bound on the text of one result's `content[]`, in bytes of UTF-8. */
export const DEFAULT_RESULT_SUMMARY_BYTES = 64 * 1024;

/** Argument names that page or narrow a result, in the order they are suggested. */
const PAGING_ARGUMENTS =
  /^(cursor|page|page_?token|next_?token|offset|start|limit|max_?results|per_?page|page_?size|count|top|head|tail|length)$/i;

/** The paging and narrowing arguments a tool's input schema declares, at most 4. */
export function _pagingArguments(inputSchema: unknown): string[] {
  const properties = (inputSchema as { properties?: unknown } | undefined)?.properties;
  if (properties === null || typeof properties !== 'object') return [];
  return Object.keys(properties)
    .filter((name) => PAGING_ARGUMENTS.test(name))
    .slice(0, 4);
}

/** `text` cut to at most `bytes` bytes of UTF-8, never inside a character. */
function _head(text: string, bytes: number): string {
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= bytes) return text;
  let end = bytes;
  // A continuation byte (10xxxxxx) is inside a character: step back to its start.
  while (end > 0 && (encoded[end]! & 0xc0) === 0x80) end--;
  return encoded.subarray(0, end).toString('utf8');
}

/**
 * `result` with `content[]`'s text bounded by `bound` bytes (0: unbounded); the same object when
 * it is within the bound or is not a tool result. Blocks other than text stay as they are;
 * `pagingArguments` is asked only when a summary is made.
 */
export function _summarizeResult(
  result: Record<string, unknown>,
  bound: number,
  pagingArguments: () => readonly string[],
): Record<string, unknown> {
  const content = result.content;
  if (bound <= 0 || !Array.isArray(content)) return result;
  const texts = content.filter(
    (b): b is { type: 'text'; text: string } =>
      b !== null && typeof b === 'object' && b.type === 'text' && typeof b.text === 'string',
  );
  const whole = texts.map((b) => b.text).join('\n');
  const size = Buffer.byteLength(whole, 'utf8');
  if (size <= bound) return result;
  const structured = result.structuredContent;
  const kept =
    structured !== null && typeof structured === 'object' && !Array.isArray(structured)
      ? structured
      : { content };
  const paging = pagingArguments();
  const narrow =
    paging.length > 0
      ? `call again with ${paging.map((a) => `\`${a}\``).join(', ')} to get less at a time`
      : 'call again with narrower arguments to get less at a time';
  const notice = `\n\n[Summary: the first part of ${size} bytes of text; the whole result is in structuredContent. To read it in parts, ${narrow}.]`;
  const head = _head(whole, Math.max(0, bound - Buffer.byteLength(notice, 'utf8')));
  const others = content.filter((b) => !texts.includes(b));
  return {
    ...result,
    content: [{ type: 'text', text: `${head}${notice}` }, ...others],
    structuredContent: kept,
  };
}
