/**
 * Native profile: discovery and a call. The catalog's pages are signed by the endpoint;
 * `xp.schema.describe` finds the probed tool by its own description; a call with a payload its
 * schema accepts (native-probe.ts) is answered with the contract's result kind, signed by the
 * endpoint and sealed to the caller, carrying what the contract's result schema requires.
 * @module
 */
import { getTag } from '@xprotocol/crypto';
import { type Check, type CheckContext, show } from '../check.js';
import { type Exchange, verifies } from '../xp-client.js';
import { errorCode, received } from './_answers.js';

/** Whether `answer` is signed by the endpoint and, when `sealed`, encrypted to the caller. */
function _signed(context: CheckContext, exchange: Exchange, sent: string, sealed: boolean): void {
  const answer = exchange.answer;
  if (!answer) return;
  context.expect(verifies(answer) && answer.pubkey === context.target.adapter.ed25519, {
    what: `the answer to ${sent} is signed by the endpoint`,
    sent,
    received: `${answer.kind} from ${show(answer.pubkey)}, ${verifies(answer) ? 'verifies' : 'does not verify'}`,
    expected: `an event signed by ${context.target.adapter.ed25519}`,
  });
  if (!sealed) return;
  context.expect(getTag(answer, 'x25519') !== undefined && exchange.openError === undefined, {
    what: `the answer to ${sent} is encrypted to the caller`,
    sent,
    received: `x25519 tag ${show(getTag(answer, 'x25519'))}${exchange.openError ? `, cannot open: ${exchange.openError}` : ''}`,
    expected: "a sealed payload with the x25519 tag that opens with the caller's key",
  });
}

/** The JSON type of `value`, as JSON Schema names it. */
function _typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** What of `value` the schema's `required` and property types refuse (a shallow check). */
function _shapeProblems(schema: unknown, value: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const s = schema as { type?: unknown; required?: unknown; properties?: Record<string, { type?: unknown }> };
  if (s.type === 'object' && _typeOf(value) !== 'object')
    return [`expected an object, got ${_typeOf(value)}`];
  const problems: string[] = [];
  const record = (value ?? {}) as Record<string, unknown>;
  for (const name of Array.isArray(s.required) ? s.required : []) {
    if (!(name in record)) problems.push(`"${name}" is required but missing`);
  }
  for (const [name, property] of Object.entries(s.properties ?? {})) {
    if (!(name in record) || typeof property?.type !== 'string') continue;
    const actual = _typeOf(record[name]);
    if (actual !== property.type && !(property.type === 'number' && actual === 'integer'))
      problems.push(`"${name}" is ${actual}, expected ${property.type}`);
  }
  return problems;
}

export const nativeCall: Check = {
  name: 'native-call',
  number: 16,
  title: 'Native: a tool found in the signed catalog is called and answered',
  async run(context) {
    const { target } = context;
    const { pages } = await target.xp.catalog(target.keys.client, target.adapter.ed25519);
    for (const page of pages) {
      context.expect(page.answer !== undefined, {
        what: 'xp.schema.catalog is answered',
        sent: 'xp.schema.catalog {limit: 500}',
        received: received(page),
        expected: 'xp.schema.catalog.result',
      });
      _signed(context, page, 'xp.schema.catalog', false);
    }
    const probe = await context.facts.probe();
    const { kind } = probe;
    context.note(`probed ${kind} with ${show(probe.payload)}`);

    const intent = String(probe.contract.description ?? '');
    const described = await target.xp.call(target.keys.client, target.adapter, 'xp.schema.describe', {
      intent,
      limit: 5,
    });
    const matches = (described.payload as { matches?: { kind?: unknown }[] } | undefined)?.matches;
    context.expect(
      described.answer?.kind === 'xp.schema.describe.result' &&
        Array.isArray(matches) &&
        matches.some((m) => m.kind === kind),
      {
        what: 'xp.schema.describe finds the tool by its own description',
        sent: `xp.schema.describe ${show({ intent, limit: 5 })}`,
        received: received(described),
        expected: `xp.schema.describe.result whose matches include ${kind}`,
      },
    );
    _signed(context, described, 'xp.schema.describe', true);

    const sent = `${kind} ${show(probe.payload)}`;
    const call = await target.xp.call(target.keys.client, target.adapter, kind, probe.payload);
    const response = probe.contract.response as { kind?: unknown; payload?: unknown } | undefined;
    const resultKind = typeof response?.kind === 'string' ? response.kind : `${kind}.result`;
    const capability = (probe.contract.auth as { required_capability?: unknown } | undefined)
      ?.required_capability;
    if (
      !context.expect(call.answer?.kind === resultKind, {
        what: `a call of ${kind} is answered with its result`,
        sent,
        received: received(call),
        expected:
          errorCode(call) === 'AUTHORIZATION_INSUFFICIENT'
            ? `${resultKind}: grant the suite's client key ${target.keys.client.keys.ed25519} ${show(capability)}`
            : `${resultKind} (give the schema "examples" when this payload is not one the tool serves)`,
      })
    ) {
      return;
    }
    _signed(context, call, kind, true);
    const structured = (call.payload as { structuredContent?: unknown } | undefined)?.structuredContent;
    const schema = (response?.payload as { properties?: { structuredContent?: unknown } } | undefined)
      ?.properties?.structuredContent;
    if (schema !== undefined) {
      const problems = _shapeProblems(schema, structured);
      context.expect(problems.length === 0, {
        what: `the result of ${kind} has what its contract's result schema requires`,
        sent,
        received: `structuredContent ${show(structured)}: ${problems.join('; ')}`,
        expected: `a value of ${show(schema)}`,
      });
    }
    context.note(`${resultKind} answered, signed and sealed: ${show(call.payload, 160)}`);
  },
};
