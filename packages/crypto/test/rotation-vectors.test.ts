/**
 * testdata/vectors/xp-rotation.json (docs/protocol.md §11.8) against this package: the file is
 * exactly what `_rotation-vectors.ts` builds (regenerate with `npx vitest run -u
 * test/rotation-vectors.test.ts`, then `node scripts/testdata-manifest.mjs`), and every case gets
 * its expected verdict from `verifyRotation` on both backends.
 */
import { describe, expect, it } from 'vitest';
import { nobleSignatures, type RotationRefusal, rotationPreimage, verifyRotation } from '../src/index.js';
import { nodeSignatures } from '../src/node.js';
import { type RotationVectors, rotationVectorsText } from './_rotation-vectors.js';
import { loadVectors } from './_testdata.js';

const FILE = 'xp-rotation.json';
const vectors = loadVectors<RotationVectors>(FILE);

describe(`testdata/vectors/${FILE}`, () => {
  it('is what the generator writes (fixed seeds and times)', async () => {
    await expect(rotationVectorsText()).toMatchFileSnapshot(`../../../testdata/vectors/${FILE}`);
  });

  it('has a case for every refusal code, and accepted rotations', () => {
    const codes: RotationRefusal[] = ['shape', 'same_key', 'id', 'signature', 'successor_signature'];
    const seen = new Set(vectors.cases.map((c) => (c.expect.ok ? 'ok' : c.expect.code)));
    expect([...seen].sort()).toEqual([...codes, 'ok'].sort());
  });

  it('the preimage and id of the example', () => {
    const [entry] = vectors.preimages;
    expect(rotationPreimage(entry!.object as Parameters<typeof rotationPreimage>[0])).toBe(entry!.preimage);
    expect(verifyRotation(entry!.object)).toMatchObject({ ok: true, rotation: { id: entry!.id } });
  });

  it.each(vectors.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    for (const backend of [nobleSignatures, nodeSignatures]) {
      const verdict = verifyRotation(c.rotation, backend);
      expect(verdict.ok ? { ok: true } : { ok: false, code: verdict.code }).toEqual(c.expect);
    }
  });
});
