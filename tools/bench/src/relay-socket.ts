/**
 * A lean relay connection for the relay suite: publishes events and resolves on their `OK`, or
 * subscribes and counts the events that arrive. Lean on purpose: the harness shares the machine
 * with the relay it measures, so it reads ids out of frames without parsing whole events.
 * @module
 */
import WebSocket from 'ws';

/** Opens a WebSocket to `url`. */
export async function openSocket(url: string): Promise<WebSocket> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return socket;
}

/** The event id in an `["EVENT", sub, {"id":"…",…}]` or `["OK","…",…]` frame. */
function _idIn(frame: string): string | undefined {
  if (frame.startsWith('["OK","')) return frame.slice(7, 71);
  const at = frame.indexOf('"id":"');
  return at < 0 ? undefined : frame.slice(at + 6, at + 70);
}

/** Publishes events on one socket; `publish` resolves when the relay answers `OK true`. */
export class Publisher {
  readonly #waiting = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = data.toString('utf8');
      const id = _idIn(frame);
      if (!frame.startsWith('["OK"') || id === undefined) return;
      const waiter = this.#waiting.get(id);
      if (!waiter) return;
      this.#waiting.delete(id);
      if (frame.includes(',true,')) waiter.resolve();
      else waiter.reject(new Error(`relay refused ${id}: ${frame}`));
    });
  }

  publish(event: { id: string }): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiting.set(event.id, { resolve, reject });
      this.socket.send(`["EVENT",${JSON.stringify(event)}]`);
    });
  }
}

/** `count` subscriptions (one socket each) to `kinds`; `arrived(id)` resolves once all have it. */
export class Subscribers {
  readonly #counts = new Map<string, number>();
  readonly #waiting = new Map<string, () => void>();

  private constructor(
    readonly sockets: WebSocket[],
    readonly count: number,
  ) {
    for (const socket of sockets) {
      socket.on('message', (data) => {
        const frame = data.toString('utf8');
        if (!frame.startsWith('["EVENT"')) return;
        const id = _idIn(frame);
        if (id === undefined) return;
        const seen = (this.#counts.get(id) ?? 0) + 1;
        if (seen < this.count) {
          this.#counts.set(id, seen);
          return;
        }
        this.#counts.delete(id);
        this.#waiting.get(id)?.();
        this.#waiting.delete(id);
      });
    }
  }

  static async open(url: string, count: number, kind: string): Promise<Subscribers> {
    const sockets = await Promise.all(Array.from({ length: count }, () => openSocket(url)));
    await Promise.all(
      sockets.map(
        (socket, i) =>
          new Promise<void>((resolve) => {
            const onFrame = (data: WebSocket.RawData) => {
              if (data.toString('utf8').startsWith('["EOSE"')) {
                socket.off('message', onFrame);
                resolve();
              }
            };
            socket.on('message', onFrame);
            socket.send(JSON.stringify(['REQ', `s${i}`, { kinds: [kind], limit: 0 }]));
          }),
      ),
    );
    return new Subscribers(sockets, count);
  }

  /** Resolves when every subscriber received `id` (register before publishing). */
  arrived(id: string): Promise<void> {
    return new Promise((resolve) => this.#waiting.set(id, resolve));
  }

  close(): void {
    for (const socket of this.sockets) socket.close();
  }
}
