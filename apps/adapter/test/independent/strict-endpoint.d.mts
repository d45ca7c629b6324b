// The types of strict-endpoint.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * @typedef {{ content: object[], structuredContent?: object, isError?: boolean }} CallToolResult
 * @typedef {(args: Record<string, unknown>, sender: string) => CallToolResult} ToolHandler
 */
/** An endpoint on one relay connection; {@link StrictEndpoint.start} it, then {@link StrictEndpoint.close}. */
export class StrictEndpoint {
  /**
   * Connects, publishes the announce and starts answering.
   *
   * @param {string} relayUrl
   * @param {import('./sealed-event.mjs').Identity} identity
   * @param {{ displayName: string, catalog: { kind: string }[], tools: Record<string, ToolHandler> }} options
   */
  static start(
    relayUrl: string,
    identity: import('./sealed-event.mjs').Identity,
    options: {
      displayName: string;
      catalog: {
        kind: string;
      }[];
      tools: Record<string, ToolHandler>;
    },
  ): Promise<StrictEndpoint>;
  /**
   * @param {StrictClient} client @param {string} relayUrl
   * @param {{ displayName: string, catalog: { kind: string }[], tools: Record<string, ToolHandler> }} options
   */
  constructor(
    client: StrictClient,
    relayUrl: string,
    options: {
      displayName: string;
      catalog: {
        kind: string;
      }[];
      tools: Record<string, ToolHandler>;
    },
  );
  /** @type {{ kind: string, args: unknown, sender: string }[]} every call run, in order */
  calls: {
    kind: string;
    args: unknown;
    sender: string;
  }[];
  client: StrictClient;
  relayUrl: string;
  options: {
    displayName: string;
    catalog: {
      kind: string;
    }[];
    tools: Record<string, ToolHandler>;
  };
  catalog: {
    kind: string;
  }[];
  /** The endpoint's keys, as a caller addresses it. */
  get keys(): {
    ed25519: string;
    x25519: string;
  };
  /** Stops answering and closes the connection. */
  close(): Promise<void>;
}
export type CallToolResult = {
  content: object[];
  structuredContent?: object;
  isError?: boolean;
};
export type ToolHandler = (args: Record<string, unknown>, sender: string) => CallToolResult;

import { StrictClient } from './strict-client.mjs';
