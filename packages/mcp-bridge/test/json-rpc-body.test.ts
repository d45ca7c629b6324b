// The JSON-RPC body rules of the HTTP MCP face, one module: which bodies are refused, with which
// code (-32700 for what is not UTF-8 JSON, -32600 for JSON that is not a valid message) and which
// id. The end-to-end proof against the built adapter is apps/adapter/test/e2e-face-http.test.ts.
import { describe, expect, it } from 'vitest';
import { _batchRefusal, _checkJsonRpcBody, _parseJsonRpcBody } from '../src/serving/json-rpc-body.js';
import { _InFlightIds } from '../src/serving/json-rpc-in-flight.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const check = (text: string) => {
  const parsed = _parseJsonRpcBody(bytes(text));
  if (!parsed.ok) return parsed.refusal;
  // With the text, as the face checks it: the walk for lone surrogates only when it has an escape of one.
  const checked = _checkJsonRpcBody(parsed.value, parsed.text);
  const walked = _checkJsonRpcBody(parsed.value);
  expect(checked).toEqual(walked);
  return checked.ok ? checked.body : checked.refusal;
};

describe('-32700: not UTF-8 JSON', () => {
  it('refuses invalid UTF-8 (a CESU-8 surrogate, a lone continuation byte) and names the byte', () => {
    const body = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","method":"x","params":{"s":"'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('"}}'),
    ]);
    expect(_parseJsonRpcBody(body)).toEqual({
      ok: false,
      refusal: {
        status: 400,
        code: -32700,
        message:
          'Parse error: the body is not valid UTF-8 (an invalid byte sequence at byte 45); JSON-RPC messages are UTF-8 JSON text',
        id: null,
      },
    });
    expect(_parseJsonRpcBody(Buffer.from([0x7b, 0x80, 0x7d]))).toMatchObject({
      ok: false,
      refusal: { code: -32700 },
    });
  });
  it('refuses what is not JSON', () => {
    expect(check('{"jsonrpc":')).toMatchObject({
      code: -32700,
      id: null,
      message: expect.stringMatching(/^Parse error: /),
    });
  });
});

describe('-32600: JSON that is not a message', () => {
  it.each([
    [
      '[]',
      'Invalid Request: an empty batch ([]) holds no message; send a request, a notification or a response',
      null,
    ],
    ['1', 'Invalid Request: expected a JSON-RPC message object, got number', null],
    ['{"jsonrpc":"1.0","id":3,"method":"ping"}', 'Invalid Request: expected "jsonrpc": "2.0", got "1.0"', 3],
    [
      '{"jsonrpc":"2.0","id":null,"method":"ping"}',
      'Invalid Request: expected the id to be a string or an integer, got null',
      null,
    ],
    [
      '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
      'Invalid Request: expected the id to be a string or an integer, got 1.5',
      null,
    ],
    [
      '{"jsonrpc":"2.0","id":4,"method":"ping","params":[1]}',
      'Invalid Request: expected params to be an object, got an array',
      4,
    ],
    ['{"jsonrpc":"2.0","id":5}', 'Invalid Request: a response has exactly one of result and error', 5],
    [
      '{"jsonrpc":"2.0"}',
      'Invalid Request: expected a request (method and id), a notification (method) or a response (id with result or error)',
      null,
    ],
    [
      '[{"jsonrpc":"2.0","method":"ping","id":1},2]',
      'Invalid Request: message 1 of the batch: expected a JSON-RPC message object, got number',
      null,
    ],
    [
      '[{"jsonrpc":"2.0","method":"ping","id":1},{"jsonrpc":"2.0","method":"ping","id":1}]',
      'Invalid Request: the batch uses the request id 1 twice',
      1,
    ],
  ])('%s', (text, message, id) => {
    expect(check(text)).toEqual({ status: 400, code: -32600, message, id });
  });
  it('refuses a lone surrogate in a value or a key, with its JSON pointer, whatever the depth', () => {
    expect(
      check(
        '{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"echo","arguments":{"text":"x\\ud800y"}}}',
      ),
    ).toEqual({
      status: 400,
      code: -32600,
      message:
        'Invalid Request: the string at /params/arguments/text holds a lone surrogate (\\ud800), which is not Unicode text',
      id: 'a',
    });
    expect(check('{"jsonrpc":"2.0","method":"n","params":{"\\udfff/k":1}}')).toMatchObject({
      code: -32600,
      message: expect.stringContaining('the string at /params/\\udfff~1k holds a lone surrogate (\\udfff)'),
    });
    const deep = `${'['.repeat(200_000)}"\\udc00"${']'.repeat(200_000)}`;
    expect(check(`{"jsonrpc":"2.0","method":"n","params":{"a":${deep}}}`)).toMatchObject({ code: -32600 });
  });
  it('finds a surrogate escape in upper case, and is not misled by an escaped backslash before "u"', () => {
    expect(check('{"jsonrpc":"2.0","method":"n","params":{"a":"\\uD9FF"}}')).toMatchObject({
      message: expect.stringContaining('lone surrogate (\\ud9ff)'),
    });
    expect(check('{"jsonrpc":"2.0","method":"n","params":{"a":"\\\\ud800"}}')).toMatchObject({
      batch: false,
    });
  });
  it('passes a surrogate pair, and every message kind', () => {
    expect(check('{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"\\ud83d\\ude00 😀"}}')).toMatchObject({
      batch: false,
    });
    expect(check('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toMatchObject({ batch: false });
    expect(check('{"jsonrpc":"2.0","id":"s1","result":{}}')).toMatchObject({ batch: false });
    expect(check('{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"no"}}')).toMatchObject({
      batch: false,
    });
  });
});

describe('batches by protocol revision', () => {
  const batch = check('[{"jsonrpc":"2.0","method":"ping","id":1},{"jsonrpc":"2.0","method":"ping","id":2}]');
  it('allows them on 2025-03-26 and refuses them from 2025-06-18 on', () => {
    if (!('batch' in batch)) throw new Error('expected a body');
    expect(_batchRefusal(batch, '2025-03-26')).toBeUndefined();
    for (const revision of ['2025-06-18', '2025-11-25']) {
      expect(_batchRefusal(batch, revision)).toEqual({
        status: 400,
        code: -32600,
        message: `Invalid Request: this session speaks protocol revision ${revision}, which has no JSON-RPC batches (removed in 2025-06-18); send each message in its own request`,
        id: null,
      });
    }
  });
  it('refuses initialize in a batch on any revision', () => {
    const init = check('[{"jsonrpc":"2.0","method":"initialize","id":1,"params":{}}]');
    if (!('batch' in init)) throw new Error('expected a body');
    expect(_batchRefusal(init, undefined)?.message).toBe(
      'Invalid Request: initialize must not be part of a batch',
    );
  });
});

describe('ids in flight', () => {
  it('refuses an id in flight until it is answered; an undelivered reservation is freed when its POST ends', () => {
    const ids = new _InFlightIds();
    const first = ids.reserve([1]);
    expect(first.ok).toBe(true);
    ids.delivered(1);
    if (first.ok) first.release(); // delivered: stays in flight
    expect(ids.reserve([1])).toEqual({ ok: false, id: 1 });
    expect(ids.reserve(['1']).ok).toBe(true); // "1" is another id
    ids.done(1);
    const again = ids.reserve([1]);
    expect(again.ok).toBe(true);
    if (again.ok) again.release(); // never delivered (the transport refused the POST)
    expect(ids.reserve([1]).ok).toBe(true);
  });
});
