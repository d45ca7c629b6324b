/**
 * Query-side handling of agent tasks before they reach the index: boilerplate removal ("can you
 * please go ahead and…"), hints from the shape of a token (a `#channel`, a URL, a file path), the
 * split of a multi-step task into clauses, and the reciprocal-rank fusion that merges the clause
 * rankings. Pure string work; the index decides when to use it.
 * @module
 */

/**
 * Agent boilerplate: phrases that frame a request without naming what it is about. Removed before
 * tokenizing (most of their words are stop words already; these are the ones that are not).
 */
const _BOILERPLATE: readonly RegExp[] = [
  /\b(?:can|could|would|will) you(?: please)?\b/giu,
  /\b(?:i|we)(?:'d| would) like (?:you )?to\b/giu,
  /\b(?:i|we) (?:need|want|have|wish) (?:you )?to\b/giu,
  /\b(?:i'?m|i am|we'?re|we are) (?:trying|looking|hoping) to\b/giu,
  /\bgo ahead and\b/giu,
  /\b(?:help me|for me|for us)\b/giu,
  /\b(?:real )?quick(?:ly)?\b/giu,
  /\b(?:right )?now\b|\basap\b/giu,
  /\bjust\b|\bactually\b|\bbasically\b|\bsomehow\b/giu,
  /\bfigure (?:it )?out\b/giu,
];

/** Token shapes that say what kind of thing the request is about, and the words they add. */
const _SHAPE_HINTS: readonly [RegExp, string][] = [
  [/(?:^|\s)#[a-z][\w-]*/iu, 'channel'],
  [/\bhttps?:\/\/\S+|\bwww\.\S+/iu, 'url page'],
  [
    /(?:^|[\s"'`(])(?:\.{0,2}\/)?[\w.-]*[\w-]\.(?:json|ya?ml|md|txt|csv|ts|js|py|toml|ini|env|lock|log|xml|html|pdf|sql|sh)\b/iu,
    'file',
  ],
];

/**
 * Developer and agent shorthand → the words tool descriptions use for it. General English of
 * software work (shell commands, chat and code-hosting slang, common abbreviations), written as a
 * lexicon like the concept lexicon; published in the README.
 */
export const AGENT_JARGON: Readonly<Record<string, string>> = Object.freeze({
  pr: 'pull request',
  prs: 'pull requests',
  mr: 'merge request',
  mrs: 'merge requests',
  repo: 'repository',
  repos: 'repositories',
  gh: 'github',
  cat: 'read file',
  ls: 'list directory',
  dir: 'directory',
  grep: 'search content',
  rg: 'search content',
  rm: 'delete',
  mv: 'move',
  cp: 'copy',
  mkdir: 'create directory',
  folder: 'directory',
  folders: 'directories',
  overwrite: 'write',
  enqueue: 'queue send',
  cd: 'directory',
  ps: 'process list',
  pid: 'process',
  repl: 'process interactive',
  terminal: 'process command',
  shell: 'process command',
  cli: 'command',
  tab: 'page',
  tabs: 'pages',
  popup: 'dialog',
  modal: 'dialog',
  env: 'environment variable',
  vars: 'variables',
  db: 'database',
  sql: 'query database',
  dm: 'direct message',
  msg: 'message',
  msgs: 'messages',
  ping: 'message',
  ppl: 'people',
  docs: 'documentation',
  deps: 'dependencies',
  pkg: 'package',
  lat: 'latitude coordinates',
  lng: 'longitude coordinates',
  lon: 'longitude coordinates',
  eta: 'travel time directions',
  site: 'website',
  headless: 'browser',
  creds: 'credentials',
  perf: 'performance',
  err: 'error',
  errs: 'errors',
  ci: 'workflow checks',
  az: 'azure',
  cf: 'cloudflare',
  fn: 'function',
  img: 'image',
  pic: 'image',
  picture: 'image',
});

const _JARGON_WORD = /[\p{L}\p{N}]+/gu;

/**
 * The query without agent boilerplate, plus the words its token shapes and (with `jargon`) its
 * shorthand ({@link AGENT_JARGON}) imply.
 * @example
 * _cleanQuery('can you please post the notes to #eng'); // ' please post the notes to #eng channel'
 */
export function _cleanQuery(text: string, jargon = true): string {
  let out = text;
  for (const re of _BOILERPLATE) out = out.replace(re, ' ');
  const hints: string[] = [];
  for (const [re, words] of _SHAPE_HINTS) if (re.test(text)) hints.push(words);
  if (jargon)
    for (const m of text.toLowerCase().matchAll(_JARGON_WORD)) {
      const expansion = AGENT_JARGON[m[0]];
      if (expansion !== undefined && Object.hasOwn(AGENT_JARGON, m[0])) hints.push(expansion);
    }
  return hints.length > 0 ? `${out} ${hints.join(' ')}` : out;
}

/** Where a multi-step task splits: sentence ends, semicolons, dashes, and "then" / "and" joins. */
const _CLAUSE_BREAK =
  /[.!?;]+(?=\s|$)|\s[—–-]\s|,?\s+(?:and\s+)?(?:then|afterwards|after that|finally)\s+|,\s*and\s+|,\s+|\s+and\s+(?:also\s+)?/iu;

/**
 * The clauses of a task when it has at least two with `minWords` words or more each (short
 * fragments join the clause before them); otherwise `[]`.
 * @example
 * _splitClauses('find the failing check on PR 42 and post a summary to #eng', 3);
 * // ['find the failing check on PR 42', 'post a summary to #eng']
 */
export function _splitClauses(text: string, minWords = 3): string[] {
  const parts = text
    .split(new RegExp(_CLAUSE_BREAK.source, 'giu'))
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  const clauses: string[] = [];
  for (const part of parts) {
    const words = part.split(/\s+/).length;
    if (words < minWords && clauses.length > 0) clauses[clauses.length - 1] += ` ${part}`;
    else clauses.push(part);
  }
  if (clauses.length > 1 && clauses[0]!.split(/\s+/).length < minWords) {
    clauses[1] = `${clauses[0]} ${clauses[1]}`;
    clauses.shift();
  }
  return clauses.length >= 2 ? clauses : [];
}

/**
 * Weighted reciprocal-rank fusion (Cormack, Clarke and Büttcher 2009): each list gives
 * `weight / (k + rank)` (rank from 1) to each of its ids. Returns ids with fused scores, best
 * first, ties by id.
 */
export function _fuseRankings(
  lists: readonly (readonly string[])[],
  weights: readonly number[],
  k: number,
): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  lists.forEach((list, l) => {
    const w = weights[l] ?? 1;
    list.forEach((id, r) => {
      scores.set(id, (scores.get(id) ?? 0) + w / (k + r + 1));
    });
  });
  return [...scores]
    .map(([id, score]) => ({ id, score: Math.round(score * 1e6) / 1e6 }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
