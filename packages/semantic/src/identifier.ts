/**
 * Identifier splitting: tool names come as `snake_case`, `camelCase`, `PascalCase`, `kebab-case`,
 * dotted (`k8s.pods.list`) or any mix (`API_getThing`, `appservice_webapp_settings_get-appsettings`).
 * One splitter serves the verb parser, the annotator and the search tokenizer, so they agree.
 * @module
 */

/** Characters that separate identifier parts: anything that is not a letter or a digit. */
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/**
 * Splits one separator-free part at case boundaries: `getUserById` → get, User, By, Id;
 * `runSEOAudit` → run, SEO, Audit; `XMLHttpRequest` → XML, Http, Request; `listURLs` → list, URLs.
 * Digits stay glued to their letters (`k8s`, `r2`, `d1`, `s3Bucket` → s3, Bucket) because real
 * names use them as product names, not as boundaries.
 */
function _splitCase(part: string): string[] {
  const out: string[] = [];
  let start = 0;
  const n = part.length;
  for (let i = 1; i < n; i++) {
    const prev = part[i - 1]!;
    const cur = part[i]!;
    const next = i + 1 < n ? part[i + 1]! : '';
    const prevUpper = _isUpper(prev);
    const curUpper = _isUpper(cur);
    // lower/digit → Upper: "getUser", "s3Bucket"
    if (curUpper && !prevUpper) {
      out.push(part.slice(start, i));
      start = i;
      continue;
    }
    // UPPER run → Upper lower: "XMLHttp" splits before "Http"; "URLs" (plural acronym) does not.
    if (curUpper && prevUpper && _isLower(next)) {
      const pluralAcronym = next === 's' && i + 2 === n;
      if (!pluralAcronym) {
        out.push(part.slice(start, i));
        start = i;
      }
    }
  }
  out.push(part.slice(start));
  return out.filter((s) => s.length > 0);
}

function _isUpper(ch: string): boolean {
  return ch !== ch.toLowerCase() && ch === ch.toUpperCase();
}

function _isLower(ch: string): boolean {
  return ch !== ch.toUpperCase() && ch === ch.toLowerCase();
}

/**
 * Splits an identifier into lowercase word tokens, in order. Separators are any run of characters
 * that are neither letters nor digits (`_`, `-`, `.`, `/`, `:`, spaces); case boundaries split
 * camelCase and PascalCase; an all-caps run stays one token (`SEO`, `API`).
 * @example
 * splitIdentifier('getUserById'); // ['get', 'user', 'by', 'id']
 * splitIdentifier('API_getThing'); // ['api', 'get', 'thing']
 * splitIdentifier('k8s.pods.list'); // ['k8s', 'pods', 'list']
 */
export function splitIdentifier(name: string): string[] {
  const tokens: string[] = [];
  for (const part of name.split(SEPARATORS)) {
    if (part.length === 0) continue;
    for (const piece of _splitCase(part)) tokens.push(piece.toLowerCase());
  }
  return tokens;
}
