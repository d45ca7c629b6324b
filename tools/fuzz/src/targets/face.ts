/**
 * JSON-RPC on the MCP face over Streamable HTTP (`@xprotocol/mcp-bridge`'s `serveMcpFace`, one
 * initialized session on loopback): a request is answered exactly once (a response with its id,
 * or a JSON-RPC error with a 4xx status), a notification is accepted (202) or refused (4xx),
 * anything else is refused with a 4xx; never a 5xx, never silence; and the session keeps working
 * (a `ping` after each input is answered).
 * @module
 */
import { generateIdentity } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { McpFace, StateDatabase, serveMcpFace, silentLogger, XpCaller } from '@xprotocol/mcp-bridge';
import type { RelayPool } from '@xprotocol/relay-client';
import fc from 'fast-check';
import { anyJson, anyText } from '../arbitraries.js';
import { type FuzzTarget, rule } from '../target.js';

const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'prompts/get',
  'logging/setLevel',
  'notifications/cancelled',
  'notifications/initialized',
];

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The JSON-RPC messages of an HTTP answer (a JSON body or the data lines of an event stream). */
export function jsonRpcMessages(type: string, body: string): Record<string, unknown>[] {
  if (body.trim() === '') return [];
  const texts = type.includes('text/event-stream')
    ? body
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .filter(Boolean)
    : [body];
  return texts.flatMap((text) => {
    const value = JSON.parse(text) as unknown;
    return (Array.isArray(value) ? value : [value]) as Record<string, unknown>[];
  });
}

export const faceJsonRpc: FuzzTarget<string> = {
  name: 'face-jsonrpc',
  rule: 'a request to the MCP face over HTTP is answered once; a notification gets 202 or a 4xx; anything else a 4xx; never a 5xx; the session keeps working',
  weight: 4,
  async open() {
    const identity = generateIdentity({ signatures: nodeSignatures, cipher: nodeCipher });
    const state = new StateDatabase(':memory:');
    const face = new McpFace({
      // No XProtocol sources: the caller is never used, so it needs no relay.
      caller: new XpCaller({
        identity,
        pool: {} as RelayPool,
        signatures: nodeSignatures,
        cipher: nodeCipher,
      }),
      state,
      sources: [],
      callTimeoutMs: 1000,
      sha256: nodeCipher.sha256,
      serverInfo: { name: 'fuzz-face', version: '0.0.0' },
    });
    const served = await serveMcpFace(face, { transport: 'streamable_http', port: 0 }, silentLogger);
    const init = await fetch(served.url, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'fuzz', version: '0' },
        },
      }),
    });
    await init.text();
    const session = init.headers.get('mcp-session-id') ?? '';
    const headers = { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const post = async (body: string) => {
      const response = await fetch(served.url, { method: 'POST', headers, body });
      return {
        status: response.status,
        type: response.headers.get('content-type') ?? '',
        body: await response.text(),
      };
    };
    await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const method = fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 20 }));
    const params = fc.oneof(
      anyJson,
      fc.record(
        { name: fc.string({ maxLength: 12 }), arguments: anyJson, level: fc.string() },
        { requiredKeys: [] },
      ),
    );
    const shaped = fc
      .record(
        {
          jsonrpc: fc.oneof(fc.constant('2.0'), anyJson),
          method,
          params,
          id: fc.oneof(fc.nat(), fc.string({ maxLength: 8 }), anyJson),
        },
        { requiredKeys: ['method'] },
      )
      .map((m) => JSON.stringify(m));
    let next = 0;
    return {
      arbitrary: fc.oneof(
        { weight: 6, arbitrary: shaped },
        { weight: 1, arbitrary: anyJson.map((v) => JSON.stringify(v)) },
        { weight: 1, arbitrary: anyText },
      ),
      check: async (text: string) => {
        const n = ++next;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          value = undefined;
        }
        const object =
          value !== null && typeof value === 'object' && !Array.isArray(value)
            ? (value as Record<string, unknown>)
            : undefined;
        const shapedRight = object?.jsonrpc === '2.0' && typeof object.method === 'string';
        const id = object?.id;
        const isRequest = shapedRight && (typeof id === 'number' || typeof id === 'string');
        const isNotification = shapedRight && !('id' in object!);
        // Requests get an id of their own, so the answer is known for sure.
        const body = isRequest ? JSON.stringify({ ...object, id: `fuzz-${n}` }) : text;
        const answer = await post(body);
        rule(
          answer.status < 500,
          `status ${answer.status} (a server error) for ${body.slice(0, 200)}: ${answer.body.slice(0, 200)}`,
        );
        if (isRequest) {
          if (answer.status === 200) {
            const replies = jsonRpcMessages(answer.type, answer.body).filter((m) => m.id === `fuzz-${n}`);
            rule(replies.length === 1, `a request got ${replies.length} answers`);
          } else {
            rule(answer.status >= 400, `a request got status ${answer.status} and no answer`);
            rule(
              jsonRpcMessages(answer.type, answer.body).some((m) => m.error !== undefined),
              `a refused request got no JSON-RPC error (status ${answer.status})`,
            );
          }
        } else if (isNotification) {
          rule(answer.status === 202 || answer.status >= 400, `a notification got status ${answer.status}`);
        } else {
          rule(
            answer.status >= 400,
            `a message that is no request or notification got status ${answer.status}: ${body.slice(0, 200)}`,
          );
        }
        const probe = await post(JSON.stringify({ jsonrpc: '2.0', id: `probe-${n}`, method: 'ping' }));
        rule(
          probe.status === 200 &&
            jsonRpcMessages(probe.type, probe.body).some(
              (m) => m.id === `probe-${n}` && m.result !== undefined,
            ),
          `the ping after the input was not answered (status ${probe.status})`,
        );
      },
      async close() {
        await served.close();
        await state.close();
      },
    };
  },
};
