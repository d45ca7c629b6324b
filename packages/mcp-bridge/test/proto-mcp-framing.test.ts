/**
 * proto-mcp framing (docs/architecture.md, "proto-mcp on the stdio face"): 4-byte big-endian
 * lengths; frames split across chunks or several in one chunk come out whole and in order; a frame
 * over the cap is reported once and its bytes skipped, whatever the chunking, and the next frame
 * is read.
 */
import { describe, expect, it } from 'vitest';
import { _FrameReader, _frame } from '../src/serving/proto-mcp-framing.js';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('_frame', () => {
  it('puts the big-endian length in front', () => {
    expect([..._frame(bytes(7, 8, 9))]).toEqual([0, 0, 0, 3, 7, 8, 9]);
    expect([..._frame(new Uint8Array(0x010203))].slice(0, 4)).toEqual([0, 1, 2, 3]);
  });
});

describe('_FrameReader', () => {
  it('gives whole frames in order, one byte at a time or all at once', () => {
    const stream = Buffer.concat([_frame(bytes(1)), _frame(bytes()), _frame(bytes(2, 3))]);
    const expected = [{ frame: bytes(1) }, { frame: bytes() }, { frame: bytes(2, 3) }];
    expect(new _FrameReader().push(stream)).toEqual(expected);
    const reader = new _FrameReader();
    const events = [...stream].flatMap((b) => reader.push(Buffer.from([b])));
    expect(events).toEqual(expected);
  });

  it('reports a frame over the cap once, skips its bytes unbuffered, and reads the next one', () => {
    const big = _frame(new Uint8Array(100).fill(0xee));
    const stream = Buffer.concat([big, _frame(bytes(5))]);
    expect(new _FrameReader(10).push(stream)).toEqual([{ oversized: 100 }, { frame: bytes(5) }]);
    const reader = new _FrameReader(10);
    const events = [];
    for (let at = 0; at < stream.length; at += 7) events.push(...reader.push(stream.subarray(at, at + 7)));
    expect(events).toEqual([{ oversized: 100 }, { frame: bytes(5) }]);
  });
});
