/**
 * testdata/vectors/xp-event-shape.json (docs/protocol.md §2.2): every event text read the way a
 * receiver reads it — inside an `EVENT` frame through `@xprotocol/wire`'s frame parser (which
 * refuses duplicate member names and nesting past 512 levels), then `verifyEvent` (shape, size,
 * id, signature) — and its verdict compared with the file's. The file is exactly what
 * support/event-shape-vectors.ts builds (regenerate with `npx vitest run -u
 * test/protocol-doc-event-shape.test.ts`, then `node scripts/testdata-manifest.mjs`).
 * @module
 */
import { verifyEvent } from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { parseRelayMessage } from '@xprotocol/wire';
import { describe, expect, it } from 'vitest';
import { type EventShapeVectors, eventShapeVectorsText } from './support/event-shape-vectors.js';
import { loadVectorFile } from './support/vectors.js';

const FILE = 'xp-event-shape.json';
const vectors = loadVectorFile<EventShapeVectors>(`testdata/vectors/${FILE}`);

/** What a receiver does with one event text: accepted, or the step that refused it. */
function verdict(text: string): { verdict: 'accepted' } | { verdict: 'refused'; code: string } {
  const frame = parseRelayMessage(`["EVENT","s",${text}]`);
  if (!frame.ok) return { verdict: 'refused', code: 'shape' };
  if (frame.message.type !== 'EVENT') throw new Error('expected an EVENT frame');
  const checked = verifyEvent(frame.message.event, nodeSignatures);
  return checked.ok ? { verdict: 'accepted' } : { verdict: 'refused', code: checked.code };
}

describe(`testdata/vectors/${FILE}`, () => {
  it('is exactly what the generator writes, and names its section', async () => {
    await expect(eventShapeVectorsText()).toMatchFileSnapshot(`../../../testdata/vectors/${FILE}`);
    expect(vectors.description).toMatch(/docs\/protocol\.md §2\.2/);
  });

  it.each(vectors.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(verdict(c.text)).toEqual(c.expect);
  });

  it('reads the duplicate-name cases the permissive way as valid events: only the rule refuses them', () => {
    for (const c of vectors.cases.filter((v) => v.name.startsWith('a member name twice'))) {
      expect(verifyEvent(JSON.parse(c.text), nodeSignatures).ok, c.name).toBe(true);
    }
  });
});
