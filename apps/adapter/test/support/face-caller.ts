// A raw HTTP client of the adapter's MCP face for the OAuth tests: one principal's requests on
// one protocol leg — in a 2025-11-25 session (initialize first, then Mcp-Session-Id) or as
// 2026-07-28 requests without one (the `_meta` envelope and the Mcp-Method / Mcp-Name headers) —
// each answer read whole: its status, its WWW-Authenticate, and the JSON-RPC message answering it
// (from a JSON body or an SSE stream). Raw, so a test sees exactly what the face sent.
import { expect } from 'vitest';

/** The two MCP revisions the face serves. */
export type Leg = '2025-11-25' | '2026-07-28';

/** One answer of the face. */
export interface FaceAnswer {
  status: number;
  wwwAuthenticate: string | null;
  /** The JSON-RPC message answering the request. */
  message: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
/** The methods whose Mcp-Name header mirrors `params.name` or `params.uri` (MCP 2026-07-28). */
const NAMED = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** What one principal uses to talk to the face on one leg. */
export class FaceCaller {
  #session: string | undefined;
  #id = 100;

  /** `bearer` may be changed between requests (a client that got a new token). */
  private constructor(
    readonly face: string,
    readonly leg: Leg,
    public bearer: string,
  ) {}

  /** A caller of `face` with `bearer`; on the 2025-11-25 leg its session is opened first. */
  static async open(face: string, leg: Leg, bearer: string): Promise<FaceCaller> {
    const caller = new FaceCaller(face, leg, bearer);
    if (leg === '2025-11-25') await caller.#initialize();
    return caller;
  }

  async #initialize(): Promise<void> {
    const init = await this.#post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'scopes', version: '0' },
      },
    });
    expect(init.status, init.text).toBe(200);
    this.#session = init.session ?? undefined;
    expect(this.#session).toBeDefined();
    await this.#post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** Sends `method` with `params` as one request of this leg; the face's answer to it. */
  async request(method: string, params: Record<string, unknown> = {}): Promise<FaceAnswer> {
    const id = ++this.#id;
    const modern = this.leg === '2026-07-28';
    const named = typeof params.name === 'string' ? params.name : params.uri;
    const answer = await this.#post(
      { jsonrpc: '2.0', id, method, params: modern ? { ...params, _meta: MODERN_META } : params },
      {
        ...(modern && { 'mcp-method': method }),
        ...(modern && NAMED.has(method) && typeof named === 'string' ? { 'mcp-name': named } : {}),
      },
    );
    return {
      status: answer.status,
      wwwAuthenticate: answer.wwwAuthenticate,
      message: _answerTo(id, answer.text),
    };
  }

  /** The result of `method`, failing the test on anything else. */
  async result(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const answer = await this.request(method, params);
    expect(answer.status, JSON.stringify(answer.message)).toBe(200);
    expect(answer.message.error, JSON.stringify(answer.message)).toBeUndefined();
    return answer.message.result ?? {};
  }

  /** Every entry of a paginated listing (`key`: `resources`, `resourceTemplates`, `prompts`). */
  async all(method: string, key: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.result(method, cursor === undefined ? {} : { cursor });
      items.push(...(page[key] as Record<string, unknown>[]));
      cursor = page.nextCursor as string | undefined;
    } while (cursor !== undefined);
    return items;
  }

  async #post(body: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(this.face, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${this.bearer}`,
        'mcp-protocol-version': this.leg,
        ...(this.#session !== undefined && { 'mcp-session-id': this.#session }),
        ...headers,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    return {
      status: response.status,
      session: response.headers.get('mcp-session-id'),
      wwwAuthenticate: response.headers.get('www-authenticate'),
      text: await response.text(),
    };
  }
}

/** Asserts a 403 insufficient_scope naming `scope`, with a JSON-RPC error answering the request. */
export function expectInsufficientScope(answer: FaceAnswer, scope: string): void {
  expect(answer.status, JSON.stringify(answer.message)).toBe(403);
  expect(answer.wwwAuthenticate).toContain('error="insufficient_scope"');
  expect(answer.wwwAuthenticate).toContain(`scope="${scope}"`);
  expect(answer.message.id).toBeTypeOf('number');
  expect(answer.message.error?.code).toBe(-32000);
  expect(answer.message.error?.message).toContain(scope);
}

/** The JSON-RPC message answering `id` in a JSON body or an SSE stream. */
function _answerTo(id: number, text: string): FaceAnswer['message'] {
  const candidates = text.trimStart().startsWith('{')
    ? [text]
    : text
        .split('\n')
        .filter((line) => line.startsWith('data: ') && line.length > 'data: '.length)
        .map((line) => line.slice('data: '.length));
  for (const candidate of candidates) {
    const message = JSON.parse(candidate) as FaceAnswer['message'];
    if (message.id === id || (message.id === null && candidates.length === 1)) return message;
  }
  throw new Error(`no answer to request ${id} in: ${text.slice(0, 500)}`);
}
