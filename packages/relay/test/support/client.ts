// A tiny relay client for tests: a real WebSocket on loopback that records every frame and lets a
// test wait for a particular one. Not the product's relay-client (that package has its own tests).
import { randomBytes } from 'node:crypto';
import { type EventTemplate, signEvent, type XpEvent } from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import WebSocket from 'ws';

export type Frame = [string, ...unknown[]];

export class TestClient {
  readonly frames: Frame[] = [];
  readonly #waiters: { predicate: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      for (let i = this.#waiters.length - 1; i >= 0; i--) {
        const waiter = this.#waiters[i]!;
        if (waiter.predicate(frame)) {
          this.#waiters.splice(i, 1);
          waiter.resolve(frame);
        }
      }
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
  }

  /** Opens a WebSocket to `url` (with `options`, e.g. an `origin` header, when given). */
  static async connect(url: string, options?: WebSocket.ClientOptions): Promise<TestClient> {
    const socket = new WebSocket(url, options);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new TestClient(socket);
  }

  send(message: unknown[]): void {
    this.socket.send(JSON.stringify(message));
  }

  /** Resolves with the first frame (already received or future) matching `predicate`. */
  waitFor(predicate: (frame: Frame) => boolean, timeoutMs = 5000): Promise<Frame> {
    const seen = this.frames.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames)}`)),
        timeoutMs,
      );
      this.#waiters.push({
        predicate,
        resolve: (frame) => {
          clearTimeout(timer);
          resolve(frame);
        },
      });
    });
  }

  /** Publishes an event and resolves with its OK frame. */
  async publish(event: unknown): Promise<Frame> {
    const id = (event as { id?: string }).id ?? '';
    const before = this.frames.length;
    this.send(['EVENT', event]);
    return this.waitFor((f) => f[0] === 'OK' && f[1] === id && this.frames.indexOf(f) >= before);
  }

  /** Sends a REQ and resolves with the events received before EOSE. */
  async request(subscriptionId: string, ...filters: unknown[]): Promise<XpEvent[]> {
    const before = this.frames.length;
    this.send(['REQ', subscriptionId, ...filters]);
    await this.waitFor(
      (f) =>
        (f[0] === 'EOSE' || f[0] === 'CLOSED') && f[1] === subscriptionId && this.frames.indexOf(f) >= before,
    );
    return this.frames
      .slice(before)
      .filter((f) => f[0] === 'EVENT' && f[1] === subscriptionId)
      .map((f) => f[2] as XpEvent);
  }

  eventsFor(subscriptionId: string): XpEvent[] {
    return this.frames.filter((f) => f[0] === 'EVENT' && f[1] === subscriptionId).map((f) => f[2] as XpEvent);
  }

  close(): void {
    this.socket.close();
  }
}

export function newSecret(): Uint8Array {
  return new Uint8Array(randomBytes(32));
}

export function makeEvent(secret: Uint8Array, overrides: Partial<EventTemplate> = {}): XpEvent {
  return signEvent(
    {
      created_at: Math.floor(Date.now() / 1000),
      kind: 'com.test.echo',
      tags: [],
      content: 'hello',
      ...overrides,
    },
    secret,
    nodeSignatures,
  );
}
