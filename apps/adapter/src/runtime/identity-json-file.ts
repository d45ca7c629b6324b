/**
 * Reading a JSON file that an identity setting names (`identity.parent_delegation_event`,
 * `identity.rotated_from`): a missing or unreadable file, or text that is not JSON, is a
 * configuration error that says which command writes the expected file.
 * @module
 */
import { readFileSync } from 'node:fs';

/** What the file should be, for the messages: who writes it, and how it is described. */
export interface _ExpectedJsonFile {
  /** e.g. `the chain file that xprotocol-adapter register --output wrote`. */
  readonly writtenBy: string;
  /** e.g. `a chain file as register writes it`. */
  readonly described: string;
}

/** The parsed JSON of `file`, or `fail` with what was wrong and what was expected. */
export function _readIdentityJson(
  file: string,
  expected: _ExpectedJsonFile,
  fail: (message: string) => never,
): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return fail(
      code === 'ENOENT'
        ? `cannot read ${file}: no such file; expected ${expected.writtenBy}`
        : `cannot read ${file}: ${(error as Error).message}`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return fail(
      `${file}: expected JSON (${expected.described}), got text that does not parse (${(error as Error).message})`,
    );
  }
}
