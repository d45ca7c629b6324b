/**
 * The native profile's probe (docs/conformance.md, "Native endpoints"): the first tool of the
 * endpoint's own catalog, by kind, whose payload schema the suite can satisfy, with a payload it
 * accepts and, where the schema allows one, a payload it refuses. The suite knows nothing else
 * about a native endpoint's tools.
 * @module
 */
import { refusedPayload, samplePayload } from './sample-payload.js';

/** What the native checks call. */
export interface NativeProbe {
  readonly kind: string;
  /** The namespace of `kind` (all but its last segment). */
  readonly namespace: string;
  readonly contract: Record<string, unknown>;
  /** A payload the contract's schema accepts. */
  readonly payload: unknown;
  /** A payload it refuses, and how; absent when the schema accepts any object. */
  readonly refused?: { value: Record<string, unknown>; how: string };
}

/** Whether a contract is a tool's (not a prompt's or a resource template's). */
export function isToolContract(contract: Record<string, unknown>): boolean {
  const source = contract.source;
  return !(
    typeof source === 'object' &&
    source !== null &&
    ('mcp_prompt' in source || 'mcp_resource_template' in source)
  );
}

/** The probe from a catalog; throws saying why no contract could be called. */
export function pickProbe(contracts: readonly Record<string, unknown>[]): NativeProbe {
  const tools = contracts
    .filter(isToolContract)
    .sort((a, b) => (String(a.kind) < String(b.kind) ? -1 : String(a.kind) > String(b.kind) ? 1 : 0));
  const reasons: string[] = [];
  for (const contract of tools) {
    const kind = String(contract.kind);
    const sample = samplePayload(contract.payload);
    if (!sample.ok) {
      reasons.push(`${kind}: ${sample.reason}`);
      continue;
    }
    const refused = refusedPayload(contract.payload, sample.value);
    return {
      kind,
      namespace: kind.slice(0, kind.lastIndexOf('.')),
      contract,
      payload: sample.value,
      ...(refused && { refused }),
    };
  }
  throw new Error(
    tools.length === 0
      ? 'the catalog lists no tool contract to call'
      : `no tool contract has a payload schema the suite can build a value for (${reasons.join('; ')})`,
  );
}
