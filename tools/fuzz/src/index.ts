/**
 * `@xprotocol/fuzz` (private): property-based fuzzing of every input the adapter and the relay
 * take from the outside. See the package README for the rules and how to run it.
 * @module
 */
export { type FuzzOptions, type FuzzResult, runFuzz } from './run.js';
export { type FuzzTarget, type OpenTarget, rule } from './target.js';
export { eventVerification, relayAdmission, sealedEvents } from './targets/events.js';
export { faceJsonRpc } from './targets/face.js';
export { faceModern } from './targets/face-modern.js';
export { clientFrames, filters, relayFrames } from './targets/frames.js';
export { oauthToken } from './targets/oauth-token.js';
export { payloads } from './targets/payloads.js';
export { relayConnection } from './targets/relay-connection.js';

import { eventVerification, relayAdmission, sealedEvents } from './targets/events.js';
import { faceJsonRpc } from './targets/face.js';
import { faceModern } from './targets/face-modern.js';
import { clientFrames, filters, relayFrames } from './targets/frames.js';
import { oauthToken } from './targets/oauth-token.js';
import { payloads } from './targets/payloads.js';
import { relayConnection } from './targets/relay-connection.js';

/** Every target, in the order a run goes through them. */
export const TARGETS = [
  clientFrames,
  relayFrames,
  filters,
  payloads,
  eventVerification,
  relayAdmission,
  sealedEvents,
  faceJsonRpc,
  faceModern,
  oauthToken,
  relayConnection,
] as const;
