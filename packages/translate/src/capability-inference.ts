/**
 * Capability inference (docs/design.md §4). First match wins:
 * 1. `schema_overrides.<tool>.required_capability`, always;
 * 2. the class of the tool name's verb (the shared verb parser: snake, camel, kebab);
 * 3. no verb match: `readOnlyHint: true` → `read`, `destructiveHint: true` → `delete`;
 * 4. otherwise `access`.
 * `auto` turns the class into `{namespace}.{class}`. `explicit` maps it onto the one listed
 * capability whose last segment is the class (seed's internal-api example: `internal.read`,
 * `internal.write`); no such capability (or several) is an error naming the tool.
 * @module
 */
import { isValidCapability } from '@xprotocol/crypto';
import { isJsonObject, type JsonObject } from './json.js';
import type { ClassifyToolName, InferredCapabilityClass } from './seams.js';

/** How the class was decided. */
export type InferenceBasis = 'override' | 'verb' | 'readOnlyHint' | 'destructiveHint' | 'default';

/** `capability_inference` of a source. */
export type CapabilityInferenceMode = 'auto' | 'explicit';

/** Inputs of {@link inferCapability}. */
export interface CapabilityInferenceInput {
  readonly toolName: string;
  readonly annotations?: JsonObject | undefined;
  readonly namespace: string;
  readonly mode: CapabilityInferenceMode;
  /** The source's `capabilities` list (used by `explicit`). */
  readonly capabilities?: readonly string[] | undefined;
  /** `schema_overrides.<tool>.required_capability`. */
  readonly override?: string | undefined;
  readonly classifyToolName: ClassifyToolName;
}

/** The inferred capability, or why there is none. */
export type CapabilityInferenceResult =
  | { ok: true; capability: string; class: InferredCapabilityClass | undefined; basis: InferenceBasis }
  | { ok: false; reason: string };

/**
 * The capability class of a tool from its name and annotations (steps 2–4 above).
 * @example
 * inferCapabilityClass('get_customer', undefined, classify); // { class: 'read', basis: 'verb' }
 * inferCapabilityClass('browser_snapshot', { readOnlyHint: true }, classify); // { class: 'read', basis: 'readOnlyHint' }
 */
export function inferCapabilityClass(
  toolName: string,
  annotations: JsonObject | undefined,
  classifyToolName: ClassifyToolName,
): { class: InferredCapabilityClass; basis: Exclude<InferenceBasis, 'override'> } {
  const verb = classifyToolName(toolName);
  if (verb !== undefined) return { class: verb, basis: 'verb' };
  if (isJsonObject(annotations)) {
    if (annotations.readOnlyHint === true) return { class: 'read', basis: 'readOnlyHint' };
    if (annotations.destructiveHint === true) return { class: 'delete', basis: 'destructiveHint' };
  }
  return { class: 'access', basis: 'default' };
}

/**
 * The `auth.required_capability` of a tool.
 * @example
 * inferCapability({ toolName: 'create_order', namespace: 'com.acme.internal', mode: 'explicit',
 *   capabilities: ['internal.read', 'internal.write'], classifyToolName: classify });
 * // { ok: true, capability: 'internal.write', class: 'write', basis: 'verb' }
 */
export function inferCapability(input: CapabilityInferenceInput): CapabilityInferenceResult {
  if (input.override !== undefined) {
    if (!isValidCapability(input.override)) {
      return {
        ok: false,
        reason: `schema_overrides.${input.toolName}.required_capability: expected dot-separated segments of [A-Za-z0-9_-]+, got ${JSON.stringify(input.override)}`,
      };
    }
    return { ok: true, capability: input.override, class: undefined, basis: 'override' };
  }
  const inferred = inferCapabilityClass(input.toolName, input.annotations, input.classifyToolName);
  if (input.mode === 'auto') {
    return {
      ok: true,
      capability: `${input.namespace}.${inferred.class}`,
      class: inferred.class,
      basis: inferred.basis,
    };
  }
  const listed = input.capabilities ?? [];
  const matches = listed.filter((cap) => cap.split('.').pop() === inferred.class);
  if (matches.length === 1) {
    return { ok: true, capability: matches[0] as string, class: inferred.class, basis: inferred.basis };
  }
  const why = `tool ${JSON.stringify(input.toolName)} is inferred as "${inferred.class}" (by ${inferred.basis})`;
  if (matches.length === 0) {
    return {
      ok: false,
      reason: `${why} but capability_inference: explicit lists no capability ending in ".${inferred.class}" (listed: ${listed.length > 0 ? listed.join(', ') : 'none'}); add one or set schema_overrides.${input.toolName}.required_capability`,
    };
  }
  return {
    ok: false,
    reason: `${why} and several listed capabilities end in ".${inferred.class}" (${matches.join(', ')}); set schema_overrides.${input.toolName}.required_capability to choose`,
  };
}
