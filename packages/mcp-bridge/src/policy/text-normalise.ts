/**
 * What a model reads in a text that a reader does not see (docs/security.md, "Tool pinning"): the
 * normalisation the description lint runs before it looks for instructions. It finds the hidden
 * characters (controls, format characters, private use, fillers, stray variation selectors and tag
 * characters), decodes the text smuggled in tag characters and in runs of variation selectors,
 * applies Unicode NFKC, and folds look-alike letters of other scripts to the ASCII they imitate
 * (Unicode's confusables data, UTS #39, through the `unhomoglyph` package) — so that
 * "rеаd ~/.ѕѕh" with Cyrillic letters reads as "read ~/.ssh" to the detectors.
 * @module
 */
import unhomoglyph from 'unhomoglyph';

/** A text as the description lint reads it. */
export interface NormalisedText {
  /** The visible text: hidden characters removed, NFKC, look-alike letters folded to ASCII. */
  folded: string;
  /** Each hidden character of the original text: its code point and its UTF-16 offset there. */
  hidden: { codePoint: number; offset: number }[];
  /** Text encoded in hidden characters (tag characters, runs of variation selectors), decoded. */
  smuggled: { via: 'tag characters' | 'variation selectors'; text: string }[];
  /** Words that mix letters of another script which look like ASCII letters. */
  confusable: { word: string; character: string; looksLike: string }[];
}

const _TAG_FIRST = 0xe0000;
const _TAG_LAST = 0xe007f;
const _CANCEL_TAG = 0xe007f;
const _BLACK_FLAG = 0x1f3f4;
const _ZWNJ = 0x200c;
const _ZWJ = 0x200d;
/** Characters that render as nothing or as blank space without being whitespace. */
const _FILLERS = new Set([
  0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180b, 0x180c, 0x180d, 0x2800, 0x3164, 0xffa0,
]);
const _FORMAT = /^[\p{Cf}\p{Co}]$/u;
const _CONTROL = /^[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]$/;
const _PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
const _IDEOGRAPHIC = /^\p{Ideographic}$/u;
const _NON_LATIN_LETTER = /^(?!\p{Script=Latin})\p{L}$/u;
const _LETTER = /^\p{L}$/u;
const _ASCII_WORD = /^[A-Za-z0-9]+$/;

/** True for a variation selector (VS1–VS16, VS17–VS256). */
function _isVariationSelector(cp: number | undefined): boolean {
  return cp !== undefined && ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef));
}

/** The byte a variation selector stands for in the "emoji smuggling" encoding (VS1 = 0, VS17 = 16). */
function _variationByte(cp: number): number {
  return cp <= 0xfe0f ? cp - 0xfe00 : cp - 0xe0100 + 16;
}

/**
 * Normalises `raw` for linting (see the module comment). Pure; linear in the text's length.
 */
export function normaliseText(raw: string): NormalisedText {
  const points = [...raw];
  const codes = points.map((p) => p.codePointAt(0)!);
  const hiddenAt = _hiddenIndexes(codes);
  const hidden: NormalisedText['hidden'] = [];
  const smuggled: NormalisedText['smuggled'] = [];
  let visible = '';
  let offset = 0;
  let tagRun = '';
  let selectorRun: number[] = [];
  const flush = () => {
    if (tagRun.trim() !== '') smuggled.push({ via: 'tag characters', text: tagRun });
    if (selectorRun.length > 1) {
      const text = new TextDecoder('utf-8', { fatal: false }).decode(Uint8Array.from(selectorRun));
      if (/[\p{L}\p{N}]/u.test(text)) smuggled.push({ via: 'variation selectors', text });
    }
    tagRun = '';
    selectorRun = [];
  };
  for (let i = 0; i < points.length; i++) {
    const cp = codes[i]!;
    if (hiddenAt.has(i)) {
      hidden.push({ codePoint: cp, offset });
      if (cp > _TAG_FIRST && cp < _CANCEL_TAG) tagRun += String.fromCodePoint(cp - _TAG_FIRST);
      else if (_isVariationSelector(cp)) selectorRun.push(_variationByte(cp));
    } else {
      // A visible character ends a hidden run; a base character's own selector run is decoded whole.
      flush();
      visible += points[i];
    }
    offset += points[i]!.length;
  }
  flush();
  const nfkc = visible.normalize('NFKC');
  return { folded: _foldConfusables(nfkc), hidden, smuggled, confusable: _confusableWords(nfkc) };
}

/** The indexes (into `codes`) of the characters a reader does not see. */
function _hiddenIndexes(codes: readonly number[]): Set<number> {
  const hidden = new Set<number>();
  const char = (i: number) => (codes[i] === undefined ? '' : String.fromCodePoint(codes[i]!));
  for (let i = 0; i < codes.length; i++) {
    const cp = codes[i]!;
    if (cp === _BLACK_FLAG) {
      // An emoji tag sequence (a subdivision flag such as Scotland's) is visible as one flag.
      const end = _flagTagEnd(codes, i + 1);
      if (end !== undefined) {
        i = end;
        continue;
      }
    }
    if (_isVariationSelector(cp)) {
      // One selector after a visible base character picks its presentation; a run of them carries data.
      const alone = !_isVariationSelector(codes[i - 1]) && !_isVariationSelector(codes[i + 1]);
      const base = char(i - 1);
      const fits =
        cp <= 0xfe0f ? base !== '' && !/^\s$/u.test(base) && !hidden.has(i - 1) : _IDEOGRAPHIC.test(base);
      if (!alone || !fits) hidden.add(i);
      continue;
    }
    if (cp === _ZWJ && _PICTOGRAPHIC.test(_emojiBefore(codes, i)) && _PICTOGRAPHIC.test(char(i + 1)))
      continue;
    if (
      (cp === _ZWJ || cp === _ZWNJ) &&
      _NON_LATIN_LETTER.test(char(i - 1)) &&
      _NON_LATIN_LETTER.test(char(i + 1))
    )
      continue; // joiners shape Arabic, Indic and other scripts
    if (_FILLERS.has(cp) || _CONTROL.test(char(i)) || _FORMAT.test(char(i))) hidden.add(i);
  }
  return hidden;
}

/** The character before a ZWJ, skipping an emoji presentation selector. */
function _emojiBefore(codes: readonly number[], i: number): string {
  const j = codes[i - 1] === 0xfe0f ? i - 2 : i - 1;
  return codes[j] === undefined ? '' : String.fromCodePoint(codes[j]!);
}

/** The index of the cancel tag that ends a subdivision flag's tag sequence starting at `from`. */
function _flagTagEnd(codes: readonly number[], from: number): number | undefined {
  for (let j = from; j < codes.length && j - from <= 7; j++) {
    const cp = codes[j]!;
    if (cp === _CANCEL_TAG) return j > from ? j : undefined;
    const ascii = cp - _TAG_FIRST;
    if (cp < _TAG_FIRST || cp > _TAG_LAST || !/^[a-z0-9]$/.test(String.fromCharCode(ascii))) return undefined;
  }
  return undefined;
}

const _folds = new Map<string, string>();

/** What `char` (one non-ASCII character) imitates in ASCII, or `undefined` when it imitates none. */
function _asciiLookAlike(char: string): string | undefined {
  let folded = _folds.get(char);
  if (folded === undefined) {
    folded = unhomoglyph(char);
    _folds.set(char, folded);
  }
  return folded !== char && /^[\x20-\x7e]+$/.test(folded) ? folded : undefined;
}

/** `text` with each non-ASCII character that imitates ASCII replaced by what it imitates. */
function _foldConfusables(text: string): string {
  if (/^[\x00-\x7f]*$/.test(text)) return text;
  let out = '';
  for (const char of text) out += char.charCodeAt(0) < 0x80 ? char : (_asciiLookAlike(char) ?? char);
  return out;
}

/**
 * The words of `text` that mix ASCII letters with letters of another script that look like ASCII
 * ones ("rеаd" with a Cyrillic е and а), and, in a text written mostly in ASCII letters, words made
 * only of such look-alikes ("ѕѕһ"). A word wholly in another script, in a text of that script, is
 * ordinary writing and not reported.
 */
function _confusableWords(text: string): NormalisedText['confusable'] {
  if (/^[\x00-\x7f]*$/.test(text)) return [];
  const letters = [...text].filter((c) => _LETTER.test(c));
  const mostlyAscii = letters.filter((c) => c < '\x80').length * 2 > letters.length;
  const out: NormalisedText['confusable'] = [];
  for (const [word] of text.matchAll(/[\p{L}\p{M}\p{N}]+/gu)) {
    let ascii = 0;
    let other = 0;
    let first: { character: string; looksLike: string } | undefined;
    for (const char of word) {
      if (char < '\x80') {
        ascii++;
        continue;
      }
      const looksLike = _LETTER.test(char) ? _asciiLookAlike(char) : undefined;
      if (looksLike === undefined || !_ASCII_WORD.test(looksLike)) {
        other++;
        continue;
      }
      first ??= { character: char, looksLike };
    }
    const imitations = [...word].length - ascii - other;
    if (first === undefined || other > 0) continue;
    if (ascii > 0 || (mostlyAscii && imitations >= 2)) out.push({ word, ...first });
  }
  return out;
}
