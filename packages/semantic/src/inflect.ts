/**
 * A small English noun inflector for data subjects (`opportunity` ↔ `opportunities`, docs/design.md
 * §7): irregular plurals, Latin and Greek plurals common in software, `-y`/`-ies`, `-s`/`-es`,
 * `-f`/`-ves`, and uncountable nouns that have one form. Lowercase in, lowercase out.
 * @module
 */

/** Irregular singular → plural pairs (both directions are derived from this table). */
const IRREGULAR: ReadonlyArray<readonly [string, string]> = [
  ['person', 'people'],
  ['child', 'children'],
  ['man', 'men'],
  ['woman', 'women'],
  ['mouse', 'mice'],
  ['goose', 'geese'],
  ['foot', 'feet'],
  ['tooth', 'teeth'],
  ['ox', 'oxen'],
  ['leaf', 'leaves'],
  ['life', 'lives'],
  ['knife', 'knives'],
  ['wife', 'wives'],
  ['half', 'halves'],
  ['self', 'selves'],
  ['shelf', 'shelves'],
  ['thief', 'thieves'],
  ['wolf', 'wolves'],
  ['calf', 'calves'],
  ['loaf', 'loaves'],
  ['analysis', 'analyses'],
  ['basis', 'bases'],
  ['crisis', 'crises'],
  ['diagnosis', 'diagnoses'],
  ['hypothesis', 'hypotheses'],
  ['parenthesis', 'parentheses'],
  ['synopsis', 'synopses'],
  ['thesis', 'theses'],
  ['axis', 'axes'],
  ['criterion', 'criteria'],
  ['phenomenon', 'phenomena'],
  ['matrix', 'matrices'],
  ['vertex', 'vertices'],
  ['appendix', 'appendices'],
  ['cactus', 'cacti'],
  ['fungus', 'fungi'],
  ['nucleus', 'nuclei'],
  ['radius', 'radii'],
  ['stimulus', 'stimuli'],
  ['syllabus', 'syllabi'],
  ['corpus', 'corpora'],
  ['genus', 'genera'],
  ['quiz', 'quizzes'],
  ['potato', 'potatoes'],
  ['tomato', 'tomatoes'],
  ['hero', 'heroes'],
  ['echo', 'echoes'],
  ['veto', 'vetoes'],
  ['die', 'dice'],
];

/** Nouns with a single form, never inflected. */
export const UNCOUNTABLE_NOUNS: ReadonlySet<string> = new Set([
  'advice',
  'analytics',
  'audio',
  'aws',
  'baggage',
  'cash',
  'code',
  'css',
  'content',
  'data',
  'deer',
  'dns',
  'documentation',
  'equipment',
  'evidence',
  'feedback',
  'firmware',
  'fish',
  'furniture',
  'gps',
  'hardware',
  'health',
  'homework',
  'https',
  'information',
  'info',
  'ios',
  'json',
  'knowledge',
  'luggage',
  'metadata',
  'middleware',
  'money',
  'music',
  'news',
  'macos',
  'offspring',
  'police',
  'research',
  'rice',
  'series',
  'sheep',
  'software',
  'sms',
  'species',
  'storage',
  'traffic',
  'usage',
  'weather',
  'wildlife',
]);

/** Singular nouns ending in `-ie` whose plural is `-ies` (the rule would give `-y`). */
const IE_NOUNS: ReadonlySet<string> = new Set([
  'calorie',
  'cookie',
  'genie',
  'hoodie',
  'lie',
  'movie',
  'pie',
  'prairie',
  'rookie',
  'selfie',
  'smoothie',
  'sortie',
  'tie',
  'zombie',
]);

/** Singular nouns ending in `-i` (plural `-is`, which the rule would read as singular `-is`). */
const I_NOUNS: ReadonlySet<string> = new Set([
  'api',
  'cli',
  'emoji',
  'gui',
  'kpi',
  'poi',
  'roi',
  'ski',
  'taxi',
  'ui',
  'uri',
  'wiki',
]);

/** Singular nouns ending in `-che` (plural `-ches`, which the rule would read as `-ch` + `-es`). */
const CHE_NOUNS: ReadonlySet<string> = new Set([
  'avalanche',
  'cache',
  'cliche',
  'creche',
  'headache',
  'moustache',
  'mustache',
  'niche',
  'psyche',
  'quiche',
]);

/** Singular nouns ending in `-us` whose plural is `-uses`. */
const US_NOUNS: ReadonlySet<string> = new Set([
  'alias',
  'bonus',
  'bus',
  'campus',
  'census',
  'chorus',
  'circus',
  'focus',
  'status',
  'virus',
  'plus',
  'prospectus',
  'apparatus',
  'canvas',
  'atlas',
  'gas',
]);

const _PLURAL_OF = new Map(IRREGULAR);
/** `bases` reads back as `base` (knowledge bases, code bases), not `basis`. */
const _PLURAL_ONLY: ReadonlySet<string> = new Set(['bases']);
const _SINGULAR_OF = new Map(
  IRREGULAR.filter(([, p]) => !_PLURAL_ONLY.has(p)).map(([s, p]) => [p, s] as const),
);

function _isVowel(ch: string | undefined): boolean {
  return ch !== undefined && 'aeiou'.includes(ch);
}

/**
 * The plural of a lowercase English noun.
 * @example
 * pluralize('opportunity'); // 'opportunities'
 * pluralize('directory'); // 'directories'
 * pluralize('data'); // 'data'
 */
export function pluralize(noun: string): string {
  if (noun.length === 0 || UNCOUNTABLE_NOUNS.has(noun) || /\d/.test(noun)) return noun;
  const irregular = _PLURAL_OF.get(noun);
  if (irregular !== undefined) return irregular;
  if (_SINGULAR_OF.has(noun)) return noun; // already an irregular plural
  const n = noun.length;
  const last = noun[n - 1];
  const beforeLast = noun[n - 2];
  if (last === 'y' && n > 1 && !_isVowel(beforeLast)) return `${noun.slice(0, -1)}ies`;
  if (US_NOUNS.has(noun)) return `${noun}es`;
  if (/(?:s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  return `${noun}s`;
}

/**
 * The singular of a lowercase English noun; a word that is already singular comes back unchanged.
 * @example
 * singularize('opportunities'); // 'opportunity'
 * singularize('statuses'); // 'status'
 * singularize('news'); // 'news'
 */
export function singularize(noun: string): string {
  if (noun.length === 0 || UNCOUNTABLE_NOUNS.has(noun)) return noun;
  const irregular = _SINGULAR_OF.get(noun);
  if (irregular !== undefined) return irregular;
  if (_PLURAL_OF.has(noun) || US_NOUNS.has(noun)) return noun; // already singular
  if (noun.length <= 2 || /\d/.test(noun)) return noun; // `os`, `k8s`, `s3`
  if (noun.endsWith('ies')) {
    const ie = noun.slice(0, -1);
    return IE_NOUNS.has(ie) ? ie : `${noun.slice(0, -3)}y`;
  }
  if (noun.endsWith('is') && I_NOUNS.has(noun.slice(0, -1))) return noun.slice(0, -1); // apis → api
  if (/(?:ss|us|is)$/.test(noun)) return noun; // class, status, analysis: singular already
  if (noun.endsWith('uses')) {
    const base = noun.slice(0, -2);
    if (US_NOUNS.has(base)) return base;
  }
  if (noun.endsWith('ases')) {
    const base = noun.slice(0, -2);
    if (US_NOUNS.has(base)) return base; // aliases, canvases
  }
  if (noun.endsWith('ches') && CHE_NOUNS.has(noun.slice(0, -1))) return noun.slice(0, -1);
  if (/(?:sses|xes|zzes|ches|shes|[^aeiouz]zes)$/.test(noun)) return noun.slice(0, -2);
  if (noun.endsWith('s')) return noun.slice(0, -1);
  return noun;
}
