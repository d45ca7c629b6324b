// The JSON examples of docs/protocol.md, held to the readers a peer's message meets: every block
// parses, every `xp.error` payload, announce and well-known document shown is one our readers
// accept. An example that drifts from the rules beside it fails here, not in a second implementer's
// hands.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { parseAnnouncePayload, readAnnounce } from '@xprotocol/registry';
import { parseWellKnownDocument, parseXpErrorPayload } from '@xprotocol/wire';
import { describe, expect, it } from 'vitest';

const DOC = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'protocol.md'), 'utf8');

interface Example {
  /** The heading of the section the block sits in. */
  section: string;
  text: string;
}

/** Every ```json block of the document, with the heading above it. */
function examples(): Example[] {
  const found: Example[] = [];
  let section = '';
  const lines = DOC.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{2,4} /.test(line)) section = line.replace(/^#+ /, '');
    if (line !== '```json') continue;
    const end = lines.indexOf('```', i + 1);
    found.push({ section, text: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return found;
}

const ALL = examples();
const parsed = (example: Example) => JSON.parse(example.text) as unknown;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const inSection = (prefix: string) => ALL.filter((example) => example.section.startsWith(prefix));

describe('docs/protocol.md JSON examples', () => {
  it('has examples, and every one is JSON', () => {
    expect(ALL.length).toBeGreaterThan(30);
    for (const example of ALL) expect(() => parsed(example), example.section).not.toThrow();
  });

  it('every xp.error payload shown is one a reader accepts (§10.2)', () => {
    const errors = ALL.filter((example) => {
      const value = parsed(example);
      return isObject(value) && typeof value.code === 'string' && 'message' in value;
    });
    // §10.2, §10.4 (two) and §11.7 show one each at least.
    expect(errors.length).toBeGreaterThanOrEqual(4);
    for (const example of errors) {
      expect(parseXpErrorPayload(parsed(example)), `${example.section}: ${example.text}`).toMatchObject({
        ok: true,
      });
    }
  });

  it('the announce payload and event of §10.3 are accepted by the announce reader', () => {
    const [payload, event] = inSection('10.3 ').map(parsed);
    expect(parseAnnouncePayload(payload)).toMatchObject({ ok: true });
    expect(readAnnounce(event, nodeSignatures)).toMatchObject({ ok: true });
  });

  it('the well-known document of §10.10 is accepted by its reader', () => {
    const [document] = inSection('10.10 ').map(parsed);
    expect(parseWellKnownDocument(document)).toMatchObject({ ok: true });
  });
});
