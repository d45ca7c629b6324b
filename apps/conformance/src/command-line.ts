/**
 * Splits `--adapter-command "CMD ARGS"` into argv: whitespace separates words, single and double
 * quotes group them (no escapes, variables or other shell syntax).
 * @module
 */

/** The words of `text`; throws on an unbalanced quote. */
export function splitCommand(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  let inWord = false;
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote)
    throw new Error(`--adapter-command: expected a closing ${quote}, got the end of ${JSON.stringify(text)}`);
  if (inWord) words.push(word);
  return words;
}
