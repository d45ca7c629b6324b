/**
 * The face's `instructions` at `initialize` (docs/architecture.md, "Instructions"): a summary of
 * the face's own, then the guidance of each source under its name. The summary holds at most
 * {@link SUMMARY_LIMIT} characters and ends at a sentence, so a client that keeps only the first 512
 * characters still has a whole text. Each source's guidance is trimmed, cut at a sentence within
 * {@link SOURCE_INSTRUCTIONS_LIMIT} characters, and a sentence already given (by an earlier source,
 * or earlier in the same one) is left out; sources with the same guidance share one heading. The text depends only on its
 * inputs, in their order: the same sources give the same bytes.
 * @module
 */

/** The most characters of the summary (the part a client that truncates at 512 keeps whole). */
export const SUMMARY_LIMIT = 512;
/** The most characters of one source's guidance; longer guidance is cut at a sentence. */
export const SOURCE_INSTRUCTIONS_LIMIT = 1536;
/**
 * The most characters of an XProtocol endpoint's guidance (its catalog's, docs/protocol.md §10.8):
 * an endpoint may wrap several servers, each bounded by {@link SOURCE_INSTRUCTIONS_LIMIT}.
 */
export const ENDPOINT_INSTRUCTIONS_LIMIT = 4096;
/** The most characters of the whole text; the sources past it are left out, named in a last line. */
export const INSTRUCTIONS_LIMIT = 8192;

/** One source of the face, as its instructions name it. */
export interface InstructionSource {
  name: string;
  /** The prefix its tool names start with (`mcp_tool_prefix`); empty: its tools keep their names. */
  prefix: string;
  /** Its guidance (already screened by description linting), or none. */
  text: string | undefined;
  /** The most characters of its guidance; default {@link SOURCE_INSTRUCTIONS_LIMIT}. */
  limit?: number | undefined;
}

/** What the face's own summary says. */
export interface FaceInstructionsInput {
  sources: readonly InstructionSource[];
  /** Whether `search_tools` is listed. */
  searchTool: boolean;
  /** Whether `describe_tool` is listed (a `listing` other than `full`). */
  describeTool?: boolean | undefined;
}

/** The face's instructions: its summary, then each source's guidance under a `## <source>` heading. */
export function composeFaceInstructions(input: FaceInstructionsInput): string {
  const summary = _summary(input);
  const sections = composeSourceSections(input.sources, '##', INSTRUCTIONS_LIMIT - SUMMARY_LIMIT - 2);
  return sections === '' ? summary : `${summary}\n\n${sections}`;
}

/**
 * The guidance of `sources` as sections under `<heading> <source>` (sources with the same
 * guidance share one heading), trimmed, bounded and without a sentence repeated, in at most
 * `total` characters (the sources that do not fit are named in a last line); empty when no source
 * has any.
 */
export function composeSourceSections(
  sources: readonly InstructionSource[],
  heading: '##' | '###',
  total: number,
): string {
  const groups: { names: string[]; text: string }[] = [];
  for (const source of sources) {
    const limit = source.limit ?? SOURCE_INSTRUCTIONS_LIMIT;
    const text = source.text === undefined ? '' : boundInstructions(source.text, limit);
    if (text === '') continue;
    const same = groups.find((g) => g.text === text);
    if (same) same.names.push(source.name);
    else groups.push({ names: [source.name], text });
  }
  const seen = new Set<string>();
  const sections: string[] = [];
  let length = 0;
  const left: string[] = [];
  for (const group of groups) {
    const paragraphs = group.text
      .split(/\n{2,}/)
      .map((paragraph) => _unseen(paragraph, seen))
      .filter((paragraph) => paragraph !== '');
    if (paragraphs.length === 0) continue;
    const section = `${heading} ${group.names.join(', ')}\n\n${paragraphs.join('\n\n')}`;
    // Room is kept for the last line naming the sources left out.
    if (length + section.length + 2 > total - 200) {
      left.push(...group.names);
      continue;
    }
    sections.push(section);
    length += section.length + 2;
  }
  if (left.length > 0)
    sections.push(`(The guidance of ${left.join(', ')} is left out: the text is long enough.)`);
  return sections.join('\n\n');
}

/**
 * `paragraph` without the sentences already in `seen` (compared without case and spacing), which
 * it then adds its own to; line breaks are kept. Sentences under {@link _MIN_REPEATED} characters
 * ("Yes.", a list marker's label) may repeat.
 */
function _unseen(paragraph: string, seen: Set<string>): string {
  const lines = paragraph.split('\n').map((line) =>
    line
      .split(/(?<=[.!?])\s+/)
      .filter((sentence) => {
        const key = sentence.toLowerCase().replace(/\s+/g, ' ').trim();
        if (key.length < _MIN_REPEATED) return true;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .join(' '),
  );
  return lines.filter((line) => line.trim() !== '').join('\n');
}

/** The shortest sentence that counts as a repetition when given again. */
const _MIN_REPEATED = 24;

/**
 * `text` trimmed (line ends unified, trailing spaces and runs of blank lines removed) and, when
 * longer than `limit` characters, cut after its last sentence (or line) that fits, marked ` […]`.
 */
export function boundInstructions(text: string, limit: number): string {
  const clean = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (clean.length <= limit) return clean;
  const marker = ' […]';
  const room = clean.slice(0, limit - marker.length);
  let cut = -1;
  for (const end of room.matchAll(/[.!?](?=\s)|\n/g)) cut = end.index + (end[0] === '\n' ? 0 : 1);
  // Without a sentence end in the second half, the last word that fits.
  if (cut < room.length / 2) cut = Math.max(room.lastIndexOf(' '), Math.floor(room.length / 2));
  return `${room.slice(0, cut).trimEnd()}${marker}`;
}

/** The face's own sentences, as many as fit in {@link SUMMARY_LIMIT} characters, in this order. */
function _summary(input: FaceInstructionsInput): string {
  const { sources } = input;
  const guided = sources.some((s) => s.text !== undefined && s.text.trim() !== '');
  const rest = [
    sources.some((s) => s.prefix !== '')
      ? "Tool names start with their source's prefix; clashing or overlong names are shortened with a hash."
      : "Tools keep their server's names; clashing or overlong names are shortened with a hash.",
    ...(input.searchTool
      ? ['To find a tool without reading every schema, call search_tools with your task in plain words.']
      : []),
    ...(input.describeTool
      ? ["Listed tools are summaries: call describe_tool for a tool's whole input schema before calling it."]
      : []),
    'Lists and large results come in pages: pass nextCursor back to read on, and narrow a query instead of reading everything.',
    ...(guided ? ["Each source's guidance follows under its name."] : []),
  ];
  const room = SUMMARY_LIMIT - rest.reduce((sum, sentence) => sum + sentence.length + 1, 0);
  const sentences = [_gathers(sources, room), ...rest];
  let summary = '';
  for (const sentence of sentences) {
    const next = summary === '' ? sentence : `${summary} ${sentence}`;
    if (next.length > SUMMARY_LIMIT) break;
    summary = next;
  }
  return summary;
}

/** The first sentence: how many sources, and as many of their names as fit in `room` characters. */
function _gathers(sources: readonly InstructionSource[], room: number): string {
  if (sources.length === 0) return 'This MCP server gathers tools from its configured sources.';
  const head = `This MCP server gathers the tools of ${sources.length === 1 ? 'one source' : `${sources.length} sources`}`;
  const named = sources.map((s) => (s.prefix === '' ? s.name : `${s.name} (tools named ${s.prefix}…)`));
  for (let shown = named.length; shown > 0; shown--) {
    const more = named.length - shown;
    const sentence = `${head}: ${named.slice(0, shown).join(', ')}${more > 0 ? ` and ${more} more` : ''}.`;
    if (sentence.length <= room) return sentence;
  }
  return `${head}.`;
}
