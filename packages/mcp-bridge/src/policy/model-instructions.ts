/**
 * Instructions aimed at the model rather than at a reader (docs/security.md, "Tool pinning"): the
 * patterns the description lint looks for in a normalised text. Two families: markup and phrases
 * that try to take over the conversation (`<IMPORTANT>`, "ignore previous instructions", chat
 * template tokens), and plain prose that asks the model to do something to the user's harm —
 * read a credential file, hand over secrets or the conversation, send data to an address, keep
 * something from the user. Tool descriptions legitimately say what a tool does with files, keys
 * and messages, so the prose patterns name what no honest description asks of a model: a
 * credential file by its path, a secret passed along, a URL or e-mail address as destination, a
 * secret kept from the user.
 * @module
 */

/** One match: what kind of instruction, and where in the text. */
export interface InstructionMatch {
  /** Which family the match belongs to. */
  family: 'block' | 'prose';
  /** What the text asks, for the finding's message. */
  what: string;
  match: string;
  index: number;
}

/** The takeover family: markup and phrases that address the model as its operator would. */
const _BLOCKS: readonly { what: string; pattern: RegExp }[] = [
  {
    what: 'an instruction tag',
    pattern:
      /<\s*\/?\s*(?:important|system|instructions?|critical|hidden|urgent|sys)\b[^>]{0,200}>|<<\s*\/?\s*sys\s*>>|\[\/?inst\]|<\|im_(?:start|end)\|>/i,
  },
  {
    what: 'an order to ignore earlier instructions',
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|every|of|the|your|my|these|those)\s+){0,3}(?:previous|prior|above|earlier|preceding|other|system|original)\s+(?:instructions|rules|prompts?|guidelines|directions|directives)\b/i,
  },
];

const _CREDENTIAL_FILE =
  /(?:~|\$home|%userprofile%)?\/?\.ssh\b(?!\/[\w.-]+\.pub\b)|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub\b)|\.aws\/credentials|\.git-credentials|\.netrc\b|\.npmrc\b|\.pgpass\b|\.docker\/config\.json|\.kube\/config|\/etc\/(?:passwd|shadow)\b|\bmcp\.json\b|claude_desktop_config\.json|(?:^|[\s'"`(/])\.env\b(?![\w-])/i;
const _SECRET =
  /\b(?:private\s+keys?|ssh\s+keys?|api[\s_-]?keys?|access\s+tokens?|auth(?:entication)?\s+tokens?|bearer\s+tokens?|credentials|passwords?|passphrases?|secrets?|seed\s+phrases?|environment\s+variables|env\s+vars?|system\s+prompt|conversation(?:\s+history)?|chat\s+history|previous\s+messages|(?:other|previous)\s+tool\s+(?:results|outputs))\b/i;
const _HAND_OVER =
  /\b(?:read|cat|open|load|include|pass|send|provide|attach|append|upload|copy|extract|collect|dump|share|leak|forward|post|insert|embed)\b/i;
/** Where a secret is to be put: a parameter ("as sidenote", "in the `context` field") or an address. */
const _AS_ARGUMENT =
  /\b(?:as|in|into|inside|within|via)\s+(?:the\s+|its\s+|a\s+|an\s+)?(?:[`'"][\w-]+[`'"]|[\w-]+\s+(?:parameter|argument|field|param|property|input)s?\b|[a-z]\w*(?:_\w+)+|sidenote|note|context|metadata)/i;
/** A sentence that forbids rather than asks ("Do not include API keys in the query"). */
const _NEGATED = /\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|avoid|no)\b/i;
const _DESTINATION = /\bto\s+(?:https?:\/\/|ftp:\/\/|[\w.+-]+@[\w-]+\.[\w.-]+|\d{1,3}(?:\.\d{1,3}){3})/i;
const _SEND =
  /\b(?:send|post|upload|forward|transmit|exfiltrate|leak|report|copy|mail|e-?mail|bcc|cc|redirect|beacon)\w*\b/i;

/** The prose family: one sentence at a time (so that two honest sentences do not make one). */
const _PROSE: readonly { what: string; test: (sentence: string) => RegExpExecArray | null }[] = [
  {
    what: 'an order to read a credential file',
    test: (s) => (_HAND_OVER.test(s) ? _CREDENTIAL_FILE.exec(s) : null),
  },
  {
    what: 'an order to hand over secrets or the conversation',
    test: (s) => {
      const verb = _HAND_OVER.exec(s);
      if (!verb || _NEGATED.test(s.slice(0, verb.index))) return null;
      const secret = _SECRET.exec(s.slice(verb.index));
      if (!secret) return null;
      const tail = s.slice(verb.index + secret.index + secret[0].length);
      return _AS_ARGUMENT.test(tail) || _DESTINATION.test(tail) ? verb : null;
    },
  },
  {
    what: 'an order to send data to an outside address',
    test: (s) => {
      if (/\bexfiltrat/i.test(s)) return /\bexfiltrat\w*/i.exec(s);
      const verb = _SEND.exec(s);
      return verb &&
        _DESTINATION.test(s.slice(verb.index)) &&
        /\b(?:must|should|always|also|all|every|silently|secretly)\b/i.test(s)
        ? verb
        : null;
    },
  },
  {
    what: 'an order to keep something from the user',
    test: (s) =>
      /\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|shouldn'?t|without)\s+(?:ever\s+)?(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|reveal(?:ing)?|notify(?:ing)?|alert(?:ing)?|show(?:ing)?\s+(?:this|it))\b[^.!?\n]{0,40}\buser\b|\b(?:hide|conceal|keep)\b[^.!?\n]{0,40}\bfrom\s+the\s+user\b|\bthe\s+user\s+(?:must|should|need|may)\s+(?:not|never)\s+(?:know|see|learn|be\s+told|find\s+out)\b/i.exec(
        s,
      ),
  },
];

/**
 * The instructions aimed at the model in `text` (a normalised text: see text-normalise.ts): the
 * first of each family, blocks first. Blocks are looked for in the whole text, prose one sentence at
 * a time.
 */
export function findModelInstructions(text: string): InstructionMatch[] {
  const out: InstructionMatch[] = [];
  for (const { what, pattern } of _BLOCKS) {
    const m = pattern.exec(text);
    if (m) {
      out.push({ family: 'block', what, match: m[0], index: m.index });
      break;
    }
  }
  for (const sentence of _sentences(text)) {
    for (const { what, test } of _PROSE) {
      const m = test(sentence.text);
      if (m) {
        out.push({ family: 'prose', what, match: sentence.text.trim(), index: sentence.index + m.index });
        return out;
      }
    }
  }
  return out;
}

/**
 * The sentences of `text`: a sentence ends at `.`, `!` or `?` followed by a space or the end, or at a
 * line break — so a path's dots ("~/.ssh/id_rsa") do not cut one.
 */
function _sentences(text: string): { text: string; index: number }[] {
  const out: { text: string; index: number }[] = [];
  let start = 0;
  for (const end of text.matchAll(/[.!?](?=\s|$)|\n/g)) {
    const stop = end.index + end[0].length;
    out.push({ text: text.slice(start, stop), index: start });
    start = stop;
  }
  if (start < text.length) out.push({ text: text.slice(start), index: start });
  return out;
}
