/**
 * JSON-RPC strictness of the stdio MCP face (docs/security.md, "The HTTP face", last paragraph):
 * the same body rules as over HTTP (`json-rpc-body.ts`), applied to each line before the SDK's stdio
 * transport reads it. A line that is not UTF-8 JSON is answered `-32700`; a line that is JSON but
 * not a message (a lone surrogate, a wrong id, `[]`), or a batch — the stdio face takes one message
 * per line; 2025-06-18 and later have no batches — is answered `-32600` with the request's id. Such a
 * line never reaches the session (the SDK would drop it without an answer, or pass a lone surrogate
 * upstream).
 * @module
 */
import { Transform } from 'node:stream';
import type { BridgeLogger } from '../logger.js';
import { _checkJsonRpcBody, type _JsonRpcRefusal, _parseJsonRpcBody } from './json-rpc-body.js';

/** Lines longer than this go through as they are (the SDK transport refuses them itself). */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * A stream of the lines of `stdin` that are JSON-RPC messages, for the SDK's stdio transport; every
 * other line is answered on `stdout` with its JSON-RPC error.
 */
export function _guardStdin(
  stdin: NodeJS.ReadableStream,
  stdout: NodeJS.WritableStream,
  logger: BridgeLogger,
): Transform {
  let pending: Buffer = Buffer.alloc(0);
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let newline = pending.indexOf(0x0a);
      while (newline !== -1) {
        const line = pending.subarray(0, newline + 1);
        pending = pending.subarray(newline + 1);
        const refusal = _lineRefusal(line);
        if (refusal === undefined) this.push(line);
        else {
          logger.warn({ code: refusal.code }, `refused an MCP message: ${refusal.message}`);
          stdout.write(
            `${JSON.stringify({ jsonrpc: '2.0', error: { code: refusal.code, message: refusal.message }, id: refusal.id })}\n`,
          );
        }
        newline = pending.indexOf(0x0a);
      }
      if (pending.length > MAX_LINE_BYTES) {
        this.push(pending);
        pending = Buffer.alloc(0);
      }
      done();
    },
    flush(done) {
      if (pending.length > 0) this.push(pending);
      done();
    },
  });
  stdin.pipe(guard);
  return guard;
}

function _lineRefusal(line: Buffer): _JsonRpcRefusal | undefined {
  let end = line.length - 1; // the newline
  if (end > 0 && line[end - 1] === 0x0d) end--;
  const text = line.subarray(0, end);
  if (text.toString('latin1').trim() === '') return undefined;
  const parsed = _parseJsonRpcBody(text);
  if (!parsed.ok) return parsed.refusal;
  const checked = _checkJsonRpcBody(parsed.value, parsed.text);
  if (!checked.ok) return checked.refusal;
  if (checked.body.batch) {
    return {
      status: 400,
      code: -32600,
      message:
        'Invalid Request: a batch; the stdio face takes one JSON-RPC message per line (protocol revision 2025-06-18 and later have no batches)',
      id: null,
    };
  }
  return undefined;
}
