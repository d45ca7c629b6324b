// _EnvelopeScanner: the top-level "id" and "method" of a JSON-RPC line, fed in pieces of any size
// (every split point of each line), against what JSON.parse says of the same line.
import { describe, expect, it } from 'vitest';
import { _EnvelopeScanner } from '../src/upstream/jsonrpc-envelope.js';

function scan(line: string, pieces: (bytes: Buffer) => Buffer[] = (b) => [b]) {
  const scanner = new _EnvelopeScanner();
  const bytes = Buffer.from(line);
  for (const piece of pieces(bytes)) scanner.feed(piece);
  expect(scanner.bytes).toBe(bytes.length);
  return scanner.envelope();
}

/** Every way to cut `bytes` in two, and one byte at a time. */
function cuts(bytes: Buffer): Buffer[][] {
  const ways: Buffer[][] = [[...bytes].map((b) => Buffer.from([b]))];
  for (let at = 0; at <= bytes.length; at++) ways.push([bytes.subarray(0, at), bytes.subarray(at)]);
  return ways;
}

const LINES: [string, number | string | undefined, boolean][] = [
  ['{"jsonrpc":"2.0","id":1,"result":{}}', 1, false],
  ['{"result":{"content":[{"id":9}]},"jsonrpc":"2.0","id":12}', 12, false],
  ['{"result":{"text":"\\"id\\":5, \\\\"},"id":"a\\"b"}', 'a"b', false],
  [' { "id" : -3.5e2 , "error" : { "id" : 1 } } ', -350, false],
  ['{"id":7,"id":8,"result":null}', 8, false],
  ['{"jsonrpc":"2.0","id":"r1","method":"roots/list"}', 'r1', true],
  ['{"jsonrpc":"2.0","method":"notifications/message","params":{"id":3}}', undefined, true],
  ['{"id":null,"error":{"code":-32700,"message":"x"}}', undefined, false],
  ['{"id":{"n":1},"result":{}}', undefined, false],
  ['{"id":[1],"result":{}}', undefined, false],
  ['{"id":true,"result":{}}', undefined, false],
  ['{"idx":1,"result":{"id":2}}', undefined, false],
  ['{"result":{"a":[1,{"b":"}]"}]},"id":4}', 4, false],
  ['{"caf\u00e9":"\u00e9","id":5}', 5, false],
];

describe('_EnvelopeScanner', () => {
  it.each(LINES)('reads %s in one piece, in two at every cut, and byte by byte', (line, id, hasMethod) => {
    const parsed = JSON.parse(line) as { id?: unknown };
    // What JSON.parse says, for the ids a request can have.
    expect(typeof parsed.id === 'number' || typeof parsed.id === 'string' ? parsed.id : undefined).toBe(id);
    for (const pieces of cuts(Buffer.from(line))) {
      expect(scan(line, () => pieces)).toEqual({ id, hasMethod, complete: true });
    }
  });

  it('gives no id for a line that is not one JSON object, or does not end as one', () => {
    for (const line of [
      'not json',
      '[{"id":1,"result":{}}]',
      '{"id":1,"result":{}',
      '{"id":1,"result":{}} trailing',
      '{"id":1 "result":{}}',
      '{"id":1,"result":"unterminated}',
      '"id":1',
      '',
    ]) {
      expect(scan(line), line).toMatchObject({ id: undefined, complete: false, hasMethod: false });
    }
  });

  it('keeps no more than 256 bytes of an id, and no id longer than that', () => {
    expect(scan(`{"id":"${'x'.repeat(254)}","result":1}`).id).toBe('x'.repeat(254));
    expect(scan(`{"id":"${'x'.repeat(255)}","result":1}`).id).toBeUndefined();
    expect(scan(`{"id":${'1'.repeat(300)},"result":1}`).id).toBeUndefined();
  });

  it('reads a 20 MiB answer with its id last, holding none of it', () => {
    const text = 'y'.repeat(20 * 1024 * 1024);
    const line = `{"result":{"content":[{"type":"text","text":"${text}"}]},"jsonrpc":"2.0","id":42}`;
    const bytes = Buffer.from(line);
    const scanner = new _EnvelopeScanner();
    for (let at = 0; at < bytes.length; at += 65_536) scanner.feed(bytes.subarray(at, at + 65_536));
    expect(scanner.envelope()).toEqual({ id: 42, hasMethod: false, complete: true });
  });
});
