/**
 * The HTTP face's 2026-07-28 leg (`@xprotocol/mcp-bridge`'s `serveMcpFace`, loopback): stateless
 * requests, each with its `_meta` envelope (revision, client capabilities and info), its
 * `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers, and the `Mcp-Param-*` headers of a
 * tool that mirrors three arguments in headers — valid requests with one part changed, or replaced.
 * The rule: never a 5xx, never silence; a request is answered once (a response with its id, or a
 * JSON-RPC error with a 4xx status), a notification gets 202 or a 4xx, anything else a 4xx; a
 * call whose arguments disagree with its `Mcp-Param-*` headers never reaches the tool; and a
 * valid request after each input is still answered. `subscriptions/listen` (a stream that stays
 * open) is never sent.
 * @module
 */
import { generateIdentity } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { McpFace, StateDatabase, serveMcpFace, silentLogger, XpCaller } from '@xprotocol/mcp-bridge';
import type { RelayPool } from '@xprotocol/relay-client';
import fc from 'fast-check';
import { anyJson, anyText } from '../arbitraries.js';
import { type FuzzTarget, rule } from '../target.js';
import { jsonRpcMessages } from './face.js';

const REVISION = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': REVISION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '0' },
};
/** The one tool: three arguments mirrored in `Mcp-Param-*` headers (one nested). */
const ECHO_SCHEMA = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    count: { type: 'integer', 'x-mcp-header': 'Count' },
    nested: { type: 'object', properties: { tenant: { type: 'string', 'x-mcp-header': 'Tenant' } } },
    text: { type: 'string' },
  },
};
const METHODS = [
  'tools/list',
  'tools/call',
  'server/discover',
  'ping',
  'resources/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'initialize',
  'notifications/cancelled',
];

/** One HTTP request: its body and its headers beyond content type and accept. */
export interface ModernInput {
  body: string;
  headers: Record<string, string>;
}

/** Header text fetch can send: Latin-1 without control characters, sometimes long. */
const headerText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 24 }).map(_latin1) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }).map(_latin1) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 20_000 }).map((n) => 'h'.repeat(n)) },
);

/** How one `Mcp-Param-*` header is written: from the argument (as it is, Base64, Base64 unpadded), or anything. */
type _HeaderForm = { form: 'plain' | 'base64' | 'unpadded' } | { form: 'raw'; value: string };

const headerForm: fc.Arbitrary<_HeaderForm> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ form: 'plain' as const }) },
  { weight: 2, arbitrary: fc.constant({ form: 'base64' as const }) },
  { weight: 1, arbitrary: fc.constant({ form: 'unpadded' as const }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('=?base64?', '=?base64??=', '=?base64?!!!!?=', '=?base64?/w==?=', '=?base64?SGVsbG8=?=')
      .map((value) => ({ form: 'raw' as const, value })),
  },
  { weight: 1, arbitrary: headerText.map((value) => ({ form: 'raw' as const, value })) },
);

/** The header value for `argument` written in `form`. */
function _headerValue(argument: unknown, form: _HeaderForm): string {
  if (form.form === 'raw') return form.value;
  const text = typeof argument === 'string' ? argument : (JSON.stringify(argument) ?? '');
  if (form.form === 'plain') return text;
  const encoded = Buffer.from(text, 'utf8').toString('base64');
  return `=?base64?${form.form === 'base64' ? encoded : encoded.replace(/=+$/, '')}?=`;
}

export const faceModern: FuzzTarget<ModernInput> = {
  name: 'face-modern',
  rule: 'a 2026-07-28 request to the HTTP face is answered once (its id, or a JSON-RPC error with a 4xx); a notification gets 202 or a 4xx; anything else a 4xx; never a 5xx; a call whose Mcp-Param-* headers disagree never runs; the face keeps answering',
  weight: 3,
  async open() {
    const identity = generateIdentity({ signatures: nodeSignatures, cipher: nodeCipher });
    const state = new StateDatabase(':memory:');
    const ran: Record<string, unknown>[] = [];
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
      localSources: [
        {
          name: 'local',
          key: identity.keys.ed25519,
          contracts: () => [
            { kind: 'com.fuzz.echo', description: 'Echoes its arguments.', payload: ECHO_SCHEMA },
          ],
          call: async (_kind, args) => {
            ran.push(args);
            return { content: [{ type: 'text', text: JSON.stringify(args) }] };
          },
        },
      ],
      callTimeoutMs: 1000,
      sha256: nodeCipher.sha256,
      serverInfo: { name: 'fuzz-face-modern', version: '0.0.0' },
    });
    const served = await serveMcpFace(face, { transport: 'streamable_http', port: 0 }, silentLogger);
    const post = async (input: ModernInput) => {
      const response = await fetch(served.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...input.headers,
        },
        body: input.body,
      });
      return {
        status: response.status,
        type: response.headers.get('content-type') ?? '',
        body: await response.text(),
      };
    };
    const list = await post(_valid('tools/list', 'probe-0', {}));
    const tool = jsonRpcMessages(list.type, list.body)[0]?.result as {
      tools?: { name: string; inputSchema: unknown }[];
    };
    const echo = tool?.tools?.find((t) => JSON.stringify(t.inputSchema).includes('x-mcp-header'));
    if (!echo)
      throw new Error(
        `face-modern: the face lists no tool with x-mcp-header: ${list.status} ${list.body.slice(0, 300)}`,
      );
    let next = 0;
    return {
      arbitrary: _inputs(echo.name),
      check: async (input: ModernInput) => {
        const n = ++next;
        const object = _object(input.body);
        const shapedRight = object?.jsonrpc === '2.0' && typeof object.method === 'string';
        const id = object?.id;
        const isRequest = shapedRight && (typeof id === 'number' || typeof id === 'string');
        const isNotification = shapedRight && !('id' in object!);
        // Requests get an id of their own, so the answer is known for sure.
        const body = isRequest ? JSON.stringify({ ...object, id: `fuzz-${n}` }) : input.body;
        const before = ran.length;
        const answer = await post({ body, headers: input.headers });
        const what = `${body.slice(0, 200)} with ${JSON.stringify(input.headers).slice(0, 300)}`;
        rule(
          answer.status < 500,
          `status ${answer.status} (a server error) for ${what}: ${answer.body.slice(0, 200)}`,
        );
        if (isRequest) {
          const replies = _messages(answer.type, answer.body);
          if (answer.status === 200) {
            const own = replies.filter((m) => m.id === `fuzz-${n}`);
            rule(own.length === 1, `a request got ${own.length} answers: ${what}`);
          } else {
            rule(answer.status >= 400, `a request got status ${answer.status} and no answer: ${what}`);
            rule(
              answer.status === 431 || replies.some((m) => m.error !== undefined),
              `a refused request got no JSON-RPC error (status ${answer.status}): ${what}`,
            );
          }
        } else if (isNotification) {
          rule(
            answer.status === 202 || answer.status >= 400,
            `a notification got status ${answer.status}: ${what}`,
          );
        } else {
          rule(
            answer.status >= 400,
            `a message that is no request or notification got status ${answer.status}: ${what}`,
          );
        }
        // What reached the tool agreed with its headers: mismatches are refused before it.
        for (const args of ran.slice(before)) {
          rule(
            _agrees(args, input.headers),
            `the tool ran with ${JSON.stringify(args)} against ${JSON.stringify(input.headers)}`,
          );
        }
        const probe = await post(_valid('tools/list', `probe-${n}`, {}));
        rule(
          probe.status === 200 &&
            jsonRpcMessages(probe.type, probe.body).some(
              (m) => m.id === `probe-${n}` && m.result !== undefined,
            ),
          `the tools/list after the input was not answered (status ${probe.status}): ${probe.body.slice(0, 200)}`,
        );
      },
      async close() {
        await served.close();
        await state.close();
      },
    };
  },
};

/** The inputs: valid requests changed in one part (body or headers), or any JSON, or any text. */
function _inputs(tool: string): fc.Arbitrary<ModernInput> {
  const region = fc.oneof(
    fc.constantFrom('eu', 'us-east', 'Zürich', ' spaced ', ''),
    fc.string({ maxLength: 12 }),
  );
  const count = fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 60), fc.string({ maxLength: 4 }));
  const args = fc.record(
    { region, count, nested: fc.oneof(fc.record({ tenant: region }), anyJson), text: anyJson },
    { requiredKeys: [] },
  );
  // A call whose headers mostly repeat its arguments (as they are or in Base64), sometimes not.
  const call = fc
    .record({
      name: fc.oneof(
        { weight: 4, arbitrary: fc.constant(tool) },
        { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
      ),
      arguments: fc.oneof({ weight: 4, arbitrary: args }, { weight: 1, arbitrary: anyJson }),
      forms: fc.record({ region: headerForm, count: headerForm, tenant: headerForm }),
      drop: fc.oneof(
        { weight: 3, arbitrary: fc.constant([]) },
        {
          weight: 1,
          arbitrary: fc.subarray([
            'mcp-param-region',
            'mcp-param-count',
            'mcp-param-tenant',
            'mcp-name',
            'mcp-method',
          ]),
        },
      ),
    })
    .map(({ name, arguments: a, forms, drop }) => {
      const request = _valid('tools/call', 1, { name, arguments: a });
      const given = (a ?? {}) as { region?: unknown; count?: unknown; nested?: { tenant?: unknown } };
      const headers: Record<string, string> = {
        ...request.headers,
        'mcp-name': name,
        'mcp-param-region': _headerValue(given.region, forms.region),
        'mcp-param-count': _headerValue(given.count, forms.count),
        'mcp-param-tenant': _headerValue(given.nested?.tenant, forms.tenant),
      };
      for (const header of drop) delete headers[header];
      return { body: request.body, headers: _latin1Headers(headers) };
    });
  const changed = fc
    .record({
      method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 20 })),
      params: fc.oneof(anyJson, fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 })),
      meta: fc.oneof(
        fc.constant(ENVELOPE),
        fc.dictionary(
          fc.constantFrom(
            ...Object.keys(ENVELOPE),
            'io.modelcontextprotocol/requestState',
            'io.modelcontextprotocol/logLevel',
          ),
          anyJson,
        ),
        fc
          .oneof(fc.constantFrom('2025-11-25', '2099-01-01', ''), anyJson)
          .map((version) => ({ ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': version })),
        anyJson,
      ),
      id: fc.oneof(fc.nat(), fc.string({ maxLength: 8 }), anyJson),
      withId: fc.boolean(),
      version: fc.oneof(fc.constantFrom(REVISION, '2025-11-25', '2099-01-01'), headerText),
      methodHeader: fc.oneof(fc.constant(undefined), headerText),
      name: fc.oneof(fc.constant(undefined), headerText),
    })
    .map(({ method, params, meta, id, withId, version, methodHeader, name }) => {
      const p =
        params !== null && typeof params === 'object' && !Array.isArray(params)
          ? { ...params, _meta: meta }
          : params;
      const body = JSON.stringify({ jsonrpc: '2.0', method, params: p, ...(withId && { id }) });
      const headers: Record<string, string> = {
        'mcp-protocol-version': version,
        'mcp-method': methodHeader ?? method,
      };
      if (name !== undefined) headers['mcp-name'] = name;
      return { body, headers: _latin1Headers(headers) };
    });
  return fc.oneof(
    { weight: 4, arbitrary: call },
    { weight: 4, arbitrary: changed },
    { weight: 1, arbitrary: fc.constantFrom(...METHODS).map((m) => _valid(m, 7, {})) },
    {
      weight: 1,
      arbitrary: anyJson.map((v) => ({ body: JSON.stringify(v), headers: _valid('ping', 1, {}).headers })),
    },
    { weight: 1, arbitrary: anyText.map((body) => ({ body, headers: _valid('ping', 1, {}).headers })) },
  );
}

/** A valid 2026-07-28 request of `method`, with its headers. */
function _valid(method: string, id: number | string, params: Record<string, unknown>): ModernInput {
  return {
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: ENVELOPE } }),
    headers: { 'mcp-protocol-version': REVISION, 'mcp-method': method },
  };
}

/** Whether the arguments a tool ran with agree with each `Mcp-Param-*` header the schema names. */
function _agrees(args: Record<string, unknown>, headers: Record<string, string>): boolean {
  const pairs: [unknown, string | undefined][] = [
    [args.region, headers['mcp-param-region']],
    [args.count, headers['mcp-param-count']],
    [(args.nested as { tenant?: unknown } | undefined)?.tenant, headers['mcp-param-tenant']],
  ];
  return pairs.every(([value, header]) => {
    // What a header cannot carry is not checked (the face's rule): objects, unsafe integers.
    const carried =
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' &&
        Number.isFinite(value) &&
        (!Number.isInteger(value) || Number.isSafeInteger(value)));
    if (!carried) return true;
    if (header === undefined) return false;
    const trimmed = header.trim();
    const match = /^=\?base64\?(.*)\?=$/.exec(trimmed);
    const text = match && trimmed.length >= 11 ? Buffer.from(match[1]!, 'base64').toString('utf8') : trimmed;
    return typeof value === 'number' ? Number(text) === value : text === String(value);
  });
}

function _object(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON-RPC messages of an answer; none when its body is not JSON (a 431 from Node, say). */
function _messages(type: string, body: string): Record<string, unknown>[] {
  try {
    return jsonRpcMessages(type, body);
  } catch {
    return [];
  }
}

/** `text` as Latin-1 without control characters (what a header value may hold). */
function _latin1(text: string): string {
  return [...text]
    .map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) > 0xff || c === '\x7f' ? '?' : c))
    .join('');
}

/** Every value as a header may hold it. */
function _latin1Headers(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, _latin1(v)]));
}
