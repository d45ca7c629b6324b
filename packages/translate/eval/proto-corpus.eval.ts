/**
 * The whole MaskBench dev corpus through the proto3 round trip (`pnpm --filter
 * @xprotocol/translate eval:proto`): prints the figures docs/translation.md §8 gives, and fails on
 * any disagreement. `npm test` runs a fixed sample of it (test/proto-corpus.test.ts).
 */
import { expect, it } from 'vitest';
import { figuresReport, runCorpus } from '../test/_proto-corpus.js';

it('proto3 on the whole MaskBench dev corpus: every translated schema agrees with its round trip', () => {
  const figures = runCorpus(() => true);
  console.log('proto3 on MaskBench dev (whole corpus):', JSON.stringify(figuresReport(figures), null, 2));
  expect(figures.uncompiled).toEqual([]);
  expect(figures.disagreements).toEqual([]);
}, 1_800_000);
