/**
 * testdata/vectors/xp-mcp-tag.json (docs/protocol.md §10.5, §10.4) against the endpoint's reader:
 * each context is sealed into a real `mcp` tag of a signed request, opened by the endpoint's step
 * 9 and read by its step 10, and the verdict compared with the file's; each `xp.mcp.request`
 * payload goes through the payload parser. (A tag that reuses the content's nonce, or does not
 * decrypt, is dropped at step 9: xp-endpoint-order.json's cases.) The file is exactly what support/mcp-tag-vectors.ts builds
 * (regenerate with `npx vitest run --update test/protocol-doc-mcp-tag.test.ts`, then
 * `node scripts/testdata-manifest.mjs`).
 * @module
 */
import { generateIdentity, nobleCipher, sealEvent } from '@xprotocol/crypto';
import { parseMcpRequestPayload } from '@xprotocol/wire';
import { describe, expect, it } from 'vitest';
import { _sealTagValue } from '../src/caller/sealed-tag.js';
import { _decryptSessionTag, _readSessionContext } from '../src/caller/xp-mcp-session-tag.js';
import { type McpTagVectors, mcpTagVectorsText } from './support/mcp-tag-vectors.js';
import { loadVectorFile } from './support/vectors.js';

const FILE = 'xp-mcp-tag.json';
const vectors = loadVectorFile<McpTagVectors>(`testdata/vectors/${FILE}`);
const caller = generateIdentity();
const endpoint = generateIdentity();

/** A request from the caller to the endpoint carrying `tag`. */
function request(tag: string[]) {
  return sealEvent(
    { kind: 'com.test.fs.read_text_file', payload: { path: 'x' }, tags: [tag] },
    caller,
    endpoint.keys,
  );
}

describe(`testdata/vectors/${FILE}`, () => {
  it('is exactly what the generator writes, and names its section', async () => {
    await expect(mcpTagVectorsText()).toMatchFileSnapshot(`../../../testdata/vectors/${FILE}`);
    expect(vectors.description).toMatch(/docs\/protocol\.md §10\.5/);
  });

  it.each(vectors.contexts.map((c) => [c.name, c] as const))('context: %s', (_name, c) => {
    const event = request(['mcp', _sealTagValue(c.text, caller, endpoint.keys, nobleCipher)]);
    const opened = _decryptSessionTag(event, endpoint, nobleCipher);
    if (opened.dropped !== undefined) throw new Error(opened.dropped);
    const verdict = _readSessionContext(opened);
    if (c.expect.verdict === 'accepted') {
      expect(verdict, verdict.ok ? '' : verdict.reason).toMatchObject({ ok: true });
    } else {
      expect(verdict.ok).toBe(false);
      if (!verdict.ok)
        expect(verdict.reason).toMatch(new RegExp(`^mcp tag: (unexpected field "?)?${c.expect.field}\\b`));
    }
  });

  it.each(vectors.mcp_request_payloads.map((c) => [c.name, c] as const))('xp.mcp.request: %s', (_name, c) => {
    const parsed = parseMcpRequestPayload(JSON.parse(c.text));
    if (c.expect.verdict === 'accepted') expect(parsed.ok).toBe(true);
    else
      expect(parsed).toMatchObject({
        ok: false,
        reason: expect.stringMatching(new RegExp(`^${c.expect.field}:`)),
      });
  });
});
