/**
 * The search tokenizer: identifier-aware (`getUserById` → get, user, by, id and the compound
 * `getuserbyid`), stop words removed, Porter-stemmed (`stemmer`). Documents and queries go
 * through the same function, so `list_repositories` meets "list my repos" on `list` and `repositori`.
 * @module
 */
import { stemmer } from 'stemmer';
import { splitIdentifier } from './identifier.js';

/**
 * Words dropped from documents and queries: English function words, plus the conversational
 * filler of agent queries and tool blurbs ("can you please help me…", "allows you to…").
 * Published in the README.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all allow allows also am an and any are as at be because been ' +
    'before being below between both but by can could did do does doing down during each either etc ' +
    'few for from further had has have having he her here hers herself him himself his how i if in ' +
    'into is it its itself just let lets like may me might more most must my myself no nor not now of ' +
    'off on once only or other our ours ourselves out over own please same shall she should so some ' +
    'such than that the their theirs them themselves then there these they this those through to too ' +
    'under until up us very via was we were what when where which while who whom whose why will with ' +
    'within without would yes yet you your yours yourself yourselves ' +
    "i'm i've i'd i'll you're you've you'd you'll it's that's there's let's don't doesn't can't won't " +
    'hi hello hey thanks thank ok okay sure want wants wanted need needs needed help helps ' +
    'tell know give kindly able using use used uses'
  ).split(/\s+/),
);

/** Stems one lowercase word (Porter). */
export function stemWord(word: string): string {
  return stemmer(word);
}

/** A word of text, before identifier splitting (also what `textVector` reads). @internal */
export const _WORD = /[\p{L}\p{N}][\p{L}\p{N}_.'’-]*/gu;

/**
 * Tokenizes text or an identifier for search. Each word is split like an identifier; a word of
 * several parts also yields its compound (`read_file` → `read`, `file`, `readfile`); stop words
 * and one-letter parts are dropped; every term is stemmed.
 * @example
 * tokenizeForSearch('Reads files by path'); // ['read', 'file', 'path']
 * tokenizeForSearch('list_directory'); // ['list', 'directori', 'listdirectori']
 */
export function tokenizeForSearch(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(_WORD)) {
    const cached = _WORD_CACHE.get(match[0]);
    if (cached !== undefined) {
      for (const t of cached) out.push(t);
      continue;
    }
    const terms = _tokenizeWord(match[0]);
    if (_WORD_CACHE.size >= WORD_CACHE_LIMIT) _WORD_CACHE.clear();
    _WORD_CACHE.set(match[0], terms);
    for (const t of terms) out.push(t);
  }
  return out;
}

/** Bound of the per-word memo (cleared when full, so memory stays bounded on any input). */
const WORD_CACHE_LIMIT = 50_000;
const _WORD_CACHE = new Map<string, readonly string[]>();

function _tokenizeWord(raw: string): readonly string[] {
  const word = raw.replace(/[.'’_-]+$/u, '');
  const lower = word.toLowerCase();
  if (STOP_WORDS.has(lower)) return [];
  const parts = splitIdentifier(word.replace(/['’]s$/u, ''));
  const out: string[] = [];
  let kept = 0;
  for (const part of parts) {
    if (part.length < 2 && !/\d/.test(part)) continue;
    if (STOP_WORDS.has(part)) continue;
    kept++;
    out.push(stemmer(part));
  }
  if (parts.length > 1 && kept > 0) out.push(stemmer(parts.join('')));
  return Object.freeze(out);
}
