// A client of a running devserver's web console for the tests: its URL and token read from the
// banner, the browser session the first visit hands out (the port's cookie and the CSRF token of
// the redirect's fragment), plain HTTP requests with any Host/Origin/Cookie (node:http, which lets
// a test forge them), and a server-sent events reader.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Child } from './children.js';

/** What one request got back. */
export interface ConsoleResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the first `?token=` visit hands a browser: its cookie and the CSRF token. */
export interface ConsoleSession {
  /** `name=value`, as a browser sends it back. */
  cookie: string;
  /** The whole `Set-Cookie` value, attributes included. */
  setCookie: string;
  /** The CSRF token, from the fragment of the redirect (`/#csrf=…`). */
  csrf: string;
}

/** The header a state-changing request carries the CSRF token in. */
export const CSRF_HEADER = 'x-xp-console-csrf';

/** The console a devserver child printed in its banner. */
export class ConsoleClient {
  readonly url: string;
  readonly base: string;
  readonly port: number;
  readonly token: string;

  constructor(child: Child) {
    const match = child.stderr.match(
      /✓ Web console: (http:\/\/127\.0\.0\.1:(\d+))\/\?token=([A-Za-z0-9_-]+)/,
    );
    if (!match) throw new Error(`no "✓ Web console:" line in the banner:\n${child.stderr}`);
    this.url = `${match[1]}/?token=${match[3]}`;
    this.base = match[1]!;
    this.port = Number(match[2]);
    this.token = match[3]!;
  }

  #session: Promise<ConsoleSession> | undefined;

  /** The token header, for requests that should pass. */
  get auth(): Record<string, string> {
    return { 'x-xp-console-token': this.token };
  }

  /** The session of the first `?token=` visit (made once); rejects unless it is a 303 with both. */
  session(): Promise<ConsoleSession> {
    this.#session ??= this.request(`/?token=${this.token}`).then((first) => {
      const setCookie = first.headers['set-cookie']?.[0] ?? '';
      const csrf = /#csrf=([A-Za-z0-9_-]+)$/.exec(first.headers.location ?? '')?.[1];
      if (first.status !== 303 || setCookie === '' || csrf === undefined) {
        throw new Error(`the first visit: HTTP ${first.status}, ${JSON.stringify(first.headers)}`);
      }
      return { cookie: setCookie.split(';')[0]!, setCookie, csrf };
    });
    return this.#session;
  }

  /** One request; `headers.host` replaces the real Host when given. */
  request(
    path: string,
    options: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<ConsoleResponse> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: this.port,
          path,
          method: options.method ?? 'GET',
          headers: options.headers,
          timeout: 60_000,
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end(options.body);
    });
  }

  /** GET or POST JSON with the token (a POST with the CSRF token too); rejects unless the status is 200. */
  async json<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T> {
    const post = body !== undefined && {
      'content-type': 'application/json',
      [CSRF_HEADER]: (await this.session()).csrf,
    };
    const response = await this.request(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...this.auth, ...post },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}: ${response.body}`);
    return JSON.parse(response.body) as T;
  }

  /** Opens `/api/events` (with the token); the records arrive in `events`. */
  events(): EventStream {
    return new EventStream(this);
  }
}

/** The records of one `/api/events` stream. */
export class EventStream {
  readonly events: Record<string, unknown>[] = [];
  readonly #waiters: {
    test: (e: Record<string, unknown>) => boolean;
    resolve: (e: Record<string, unknown>) => void;
  }[] = [];
  readonly #close: () => void;
  readonly opened: Promise<ConsoleResponse['headers']>;

  constructor(client: ConsoleClient) {
    let buffer = '';
    let close = () => {};
    this.opened = new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: client.port, path: '/api/events', headers: client.auth },
        (res) => {
          resolve(res.headers);
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffer += chunk;
            let end = buffer.indexOf('\n\n');
            while (end >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const data = block
                .split('\n')
                .filter((line) => line.startsWith('data: '))
                .map((line) => line.slice(6))
                .join('\n');
              if (data !== '') this.#add(JSON.parse(data) as Record<string, unknown>);
              end = buffer.indexOf('\n\n');
            }
          });
        },
      );
      req.on('error', reject);
      req.end();
      close = () => req.destroy();
    });
    this.#close = () => close();
  }

  /** The first record (seen or to come) that passes `test`; rejects after `timeoutMs`. */
  waitFor(
    test: (e: Record<string, unknown>) => boolean,
    timeoutMs = 30_000,
  ): Promise<Record<string, unknown>> {
    const seen = this.events.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`no such event after ${timeoutMs} ms; got:\n${JSON.stringify(this.events, null, 1)}`),
          ),
        timeoutMs,
      );
      this.#waiters.push({
        test,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      });
    });
  }

  close(): void {
    this.#close();
  }

  #add(event: Record<string, unknown>): void {
    this.events.push(event);
    for (const waiter of [...this.#waiters]) {
      if (waiter.test(event)) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  }
}
