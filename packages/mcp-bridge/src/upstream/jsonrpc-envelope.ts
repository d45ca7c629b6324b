/**
 * Reads the envelope of a JSON-RPC message — its top-level `"id"`, and whether it has a top-level
 * `"method"` — from a line fed in pieces, keeping none of it: what the stdio transport needs to
 * know of a line too long to keep (docs/security.md, "Upstream stdio children"). The id is found
 * wherever it sits among the members (the TypeScript SDK writes it last, after the result); an
 * `"id"` nested in the result, or inside a string, is not it.
 * @module
 */

/** What the top level of one line says. */
export interface _Envelope {
  /** The last top-level `"id"` when it is a number or a string (of at most 256 bytes as JSON). */
  id: number | string | undefined;
  /** A top-level `"method"` member (in a complete object): a request or notification of the server. */
  hasMethod: boolean;
  /** The line was one JSON object whose closing brace was seen. */
  complete: boolean;
}

const _QUOTE = 0x22;
const _BACKSLASH = 0x5c;
const _OPEN_OBJECT = 0x7b;
const _CLOSE_OBJECT = 0x7d;
const _OPEN_ARRAY = 0x5b;
const _CLOSE_ARRAY = 0x5d;
const _COLON = 0x3a;
const _COMMA = 0x2c;
/** Longest top-level key kept to compare (`"method"` is the longest wanted). */
const _MAX_KEY = 16;
/** Longest id kept, as JSON. */
const _MAX_ID = 256;

/** Where the scanner is among the members of the top-level object. */
type _Stage = 'key' | 'colon' | 'value' | 'literal' | 'after';

/**
 * Scans one line, piece by piece, in constant memory: a structural JSON walk that follows strings
 * (and their escapes) and nesting, and keeps only the bytes of top-level keys and of the id.
 */
export class _EnvelopeScanner {
  /** The bytes fed so far. */
  bytes = 0;
  #started = false;
  /** Set once the line turned out not to be one JSON object. */
  #done = false;
  #complete = false;
  #depth = 0;
  #stage: _Stage = 'key';
  #inString = false;
  #escape = false;
  /** What the string or literal being read is kept for, if anything. */
  #keeping: 'key' | 'id' | undefined;
  #kept: number[] = [];
  #overflow = false;
  /** The top-level member whose value comes next. */
  #member: 'id' | 'method' | 'other' = 'other';
  #idJson: string | undefined;
  #hasMethod = false;

  /** Reads the next piece of the line (without its `\n`). */
  feed(piece: Uint8Array): void {
    this.bytes += piece.length;
    const end = piece.length;
    let i = 0;
    while (i < end && !this.#done) {
      if (this.#inString && this.#keeping === undefined && !this.#escape) {
        // The bulk of a large answer is string content kept by no one: run to its closing quote
        // without a call per byte, stepping over each escape.
        while (i < end) {
          const b = piece[i] as number;
          if (b === _QUOTE) break;
          if (b !== _BACKSLASH) i++;
          else if (i + 1 < end) i += 2;
          else {
            this.#escape = true;
            return;
          }
        }
        if (i >= end) return;
      }
      this.#byte(piece[i] as number);
      i++;
    }
  }

  /** What was learned; `id` only when the object was complete. */
  envelope(): _Envelope {
    this.#endLiteral();
    let id: number | string | undefined;
    if (this.#complete && this.#idJson !== undefined) {
      try {
        const parsed: unknown = JSON.parse(this.#idJson);
        if (typeof parsed === 'string' || (typeof parsed === 'number' && Number.isFinite(parsed)))
          id = parsed;
      } catch {
        // Not a JSON value: no id.
      }
    }
    return { id, hasMethod: this.#complete && this.#hasMethod, complete: this.#complete };
  }

  #byte(b: number): void {
    if (this.#inString) {
      this.#stringByte(b);
      return;
    }
    if (b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a) {
      if (this.#stage === 'literal' && this.#depth === 1) this.#endLiteral();
      return;
    }
    if (this.#complete) {
      // Something after the object: the line is not one JSON value.
      this.#complete = false;
      this.#done = true;
      return;
    }
    if (!this.#started) {
      this.#started = true;
      if (b === _OPEN_OBJECT) this.#depth = 1;
      else this.#done = true;
      return;
    }
    if (this.#depth > 1) this.#nestedByte(b);
    else this.#memberByte(b);
  }

  #stringByte(b: number): void {
    if (this.#keeping !== undefined) this.#keep(b);
    if (this.#escape) this.#escape = false;
    else if (b === _BACKSLASH) this.#escape = true;
    else if (b === _QUOTE) {
      this.#inString = false;
      if (this.#depth === 1) this.#endString();
    }
  }

  #nestedByte(b: number): void {
    if (b === _QUOTE) this.#inString = true;
    else if (b === _OPEN_OBJECT || b === _OPEN_ARRAY) this.#depth++;
    else if (b === _CLOSE_OBJECT || b === _CLOSE_ARRAY) this.#depth--;
  }

  /** A byte between the members of the top-level object. */
  #memberByte(b: number): void {
    switch (this.#stage) {
      case 'key':
        if (b === _QUOTE) this.#startString('key');
        else if (b === _CLOSE_OBJECT) this.#close();
        else this.#done = true;
        return;
      case 'colon':
        if (b === _COLON) this.#stage = 'value';
        else this.#done = true;
        return;
      case 'value':
        this.#valueStart(b);
        return;
      case 'literal':
        if (b === _COMMA || b === _CLOSE_OBJECT) {
          this.#endLiteral();
          this.#afterValue(b);
        } else if (this.#keeping === 'id') this.#keep(b);
        return;
      case 'after':
        this.#afterValue(b);
        return;
    }
  }

  #valueStart(b: number): void {
    const id = this.#member === 'id';
    if (id) this.#idJson = undefined;
    if (b === _QUOTE) {
      this.#startString(id ? 'id' : undefined);
      if (id) this.#keep(b);
    } else if (b === _OPEN_OBJECT || b === _OPEN_ARRAY) {
      this.#depth++;
      this.#stage = 'after';
    } else {
      this.#stage = 'literal';
      this.#keeping = id ? 'id' : undefined;
      this.#kept = [];
      this.#overflow = false;
      if (id) this.#keep(b);
    }
  }

  #afterValue(b: number): void {
    if (b === _COMMA) this.#stage = 'key';
    else if (b === _CLOSE_OBJECT) this.#close();
    else this.#done = true;
  }

  #startString(keeping: 'key' | 'id' | undefined): void {
    this.#inString = true;
    this.#keeping = keeping;
    this.#kept = [];
    this.#overflow = false;
  }

  /** A string at the top level ended: a key, or a value. */
  #endString(): void {
    if (this.#keeping === 'key') {
      // Kept without its opening quote, with its closing one.
      const key = this.#overflow ? '' : String.fromCharCode(...this.#kept.slice(0, -1));
      this.#member = key === 'id' ? 'id' : key === 'method' ? 'method' : 'other';
      if (this.#member === 'method') this.#hasMethod = true;
      this.#stage = 'colon';
    } else {
      if (this.#keeping === 'id' && !this.#overflow) this.#idJson = Buffer.from(this.#kept).toString('utf8');
      this.#stage = 'after';
    }
    this.#keeping = undefined;
  }

  #endLiteral(): void {
    if (this.#stage !== 'literal') return;
    if (this.#keeping === 'id' && !this.#overflow) this.#idJson = String.fromCharCode(...this.#kept);
    this.#keeping = undefined;
    this.#stage = 'after';
  }

  #keep(b: number): void {
    if (this.#kept.length < (this.#keeping === 'key' ? _MAX_KEY : _MAX_ID)) this.#kept.push(b);
    else this.#overflow = true;
  }

  #close(): void {
    this.#depth = 0;
    this.#complete = true;
  }
}
