/**
 * Optional check 13, callers under a delegation chain (docs/protocol.md §11.7): the adapter trusts
 * the suite's root (`access.trusted_issuers`, with a grant of `conf.test.read`), and a key with no
 * grant of its own calls `read_note` with a `delegation` tag. A valid chain is served; a widened,
 * expired or someone else's chain is refused `AUTHORIZATION_INSUFFICIENT`; a chain that was served
 * is refused `REVOKED` once its root publishes a revocation on the relay (§11.2). No refused call
 * reaches the test server. An adapter that serves no valid chain has the behaviour absent.
 * @module
 */
import {
  canonicalJson,
  conversationKey,
  createEventTemplate,
  type Delegation,
  delegationChainId,
  encryptPayload,
  generateIdentity,
  type Identity,
  type PublicIdentity,
  parseKey,
  signEvent,
} from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { type Check, type CheckContext, show } from '../check.js';
import { revoke, signChain } from '../suite-delegation.js';
import { TEST_NAMESPACE } from '../test-tools.js';
import { BACKENDS, type Exchange, nowSeconds } from '../xp-client.js';
import { errorCode, marker, received } from './_answers.js';

const READ = `${TEST_NAMESPACE}.read`;
const READ_NOTE = `${TEST_NAMESPACE}.read_note`;

/** The `["delegation", <chain id>, <chain sealed under the conversation key>]` tag (§11.7, §6). */
export function delegationTag(chain: readonly Delegation[], sender: Identity, to: PublicIdentity): string[] {
  const key = conversationKey(
    sender.x25519.secretKey,
    parseKey(to.x25519, 'x25519').bytes,
    sender.ed25519.publicKey,
    parseKey(to.ed25519, 'ed25519').bytes,
    nodeCipher,
  );
  return [
    'delegation',
    delegationChainId(
      chain.map((link) => link.id),
      nodeCipher,
    ),
    encryptPayload(canonicalJson(chain), key, { backend: nodeCipher }),
  ];
}

/** `read_note` from `caller` with `chain` in a delegation tag; the title is a marker. */
async function _callWith(
  context: CheckContext,
  caller: Identity,
  chain: readonly Delegation[],
  label: string,
): Promise<{ exchange: Exchange; mark: string }> {
  const { target } = context;
  const mark = marker(label);
  const exchange = await target.xp.call(caller, target.adapter, READ_NOTE, { title: mark }, 20_000, [
    delegationTag(chain, caller, target.adapter),
  ]);
  return { exchange, mark };
}

function _served(context: CheckContext, call: { exchange: Exchange; mark: string }): boolean {
  return call.exchange.answer?.kind === `${READ_NOTE}.result` && context.target.reached(call.mark) !== false;
}

/** A refusal with `code` that never reached the test server. */
function _expectRefused(
  context: CheckContext,
  call: { exchange: Exchange; mark: string },
  label: string,
  code: string,
): void {
  const sent = `${READ_NOTE} with a delegation tag holding ${label}`;
  context.expect(errorCode(call.exchange) === code, {
    what: `${label} is refused ${code}`,
    sent,
    received: received(call.exchange),
    expected: `xp.error with code ${code}`,
  });
  const details = (call.exchange.payload as { details?: { chain_code?: unknown } } | undefined)?.details;
  if (details?.chain_code !== undefined) context.note(`${label}: chain_code ${show(details.chain_code)}`);
  context.expect(context.target.reached(call.mark) !== true, {
    what: `${label}: the MCP server never sees the call`,
    sent,
    received: 'the test server recorded the call',
    expected: 'no call recorded',
  });
}

/** Publishes the root's revocation of `link` on the suite's relay, as §11.2 "On relays" says. */
async function _publishRevocation(context: CheckContext, link: Delegation): Promise<void> {
  const root = context.target.keys.issuer;
  const now = nowSeconds();
  const event = signEvent(
    createEventTemplate({
      kind: 'xp.key.revoke',
      content: canonicalJson(revoke(link, root, now)),
      created_at: now,
      expiration: now + 3600,
    }),
    root.ed25519.secretKey,
    nodeSignatures,
  );
  await context.target.xp.pool.publish(event);
}

export const delegatedCallers: Check = {
  name: 'delegated-callers',
  number: 13,
  optional: 'Delegated identity',
  title: 'Delegated identity: callers under a trusted chain are served, bad or revoked chains refused',
  async run(context) {
    const { target } = context;
    if (!target.delegation.configured) {
      context.absent(target.delegation.reason);
      return;
    }
    const root = target.keys.issuer;
    const caller = generateIdentity(BACKENDS);
    const now = nowSeconds();
    const valid = signChain([{ signer: root, to: caller.keys.ed25519, capabilities: [READ] }], now);
    const first = await _callWith(context, caller, valid, 'valid-chain');
    if (!_served(context, first)) {
      if (errorCode(first.exchange) === 'AUTHORIZATION_INSUFFICIENT') {
        context.absent(
          `a key with no grant presenting a valid chain from the trusted issuer ${root.keys.ed25519} was refused: ${received(first.exchange)}`,
        );
        return;
      }
      context.fail({
        what: 'a valid chain from a trusted issuer is served',
        sent: `${READ_NOTE} from a key with no grant, with a delegation tag: ${root.keys.ed25519} → that key [${READ}]`,
        received: received(first.exchange),
        expected: `${READ_NOTE}.result, and the test server records the call`,
      });
      return;
    }
    context.note('a valid one-link chain from the trusted issuer was served');
    const department = generateIdentity(BACKENDS);
    const widened = signChain(
      [
        { signer: root, to: department.keys.ed25519, capabilities: [READ] },
        { signer: department, to: caller.keys.ed25519, capabilities: [`${TEST_NAMESPACE}.*`] },
      ],
      now,
    );
    const expired = signChain(
      [{ signer: root, to: caller.keys.ed25519, capabilities: [READ], from: -7200, until: -3600 }],
      now,
    );
    const someoneElse = signChain(
      [{ signer: root, to: generateIdentity(BACKENDS).keys.ed25519, capabilities: [READ] }],
      now,
    );
    const [wide, old, foreign] = await Promise.all([
      _callWith(context, caller, widened, 'widened'),
      _callWith(context, caller, expired, 'expired'),
      _callWith(context, caller, someoneElse, 'not-the-signer'),
    ]);
    _expectRefused(
      context,
      wide,
      'a widened chain (link 1 holds conf.test.*, link 0 only conf.test.read)',
      'AUTHORIZATION_INSUFFICIENT',
    );
    _expectRefused(context, old, 'an expired chain', 'AUTHORIZATION_INSUFFICIENT');
    _expectRefused(context, foreign, 'a chain for another key than the signer', 'AUTHORIZATION_INSUFFICIENT');
    await _revokedChain(context, root, now);
  },
};

/** A chain that is served, then refused `REVOKED` once its root's revocation is on the relay. */
async function _revokedChain(context: CheckContext, root: Identity, now: number): Promise<void> {
  const caller = generateIdentity(BACKENDS);
  const chain = signChain([{ signer: root, to: caller.keys.ed25519, capabilities: [READ] }], now);
  const before = await _callWith(context, caller, chain, 'before-revocation');
  if (
    !context.expect(_served(context, before), {
      what: 'a second valid chain is served before it is revoked (control)',
      sent: `${READ_NOTE} with a delegation tag: ${root.keys.ed25519} → ${caller.keys.ed25519}`,
      received: received(before.exchange),
      expected: `${READ_NOTE}.result`,
    })
  ) {
    return;
  }
  await _publishRevocation(context, chain[0]!);
  const after = await _callWith(context, caller, chain, 'revoked');
  _expectRefused(
    context,
    after,
    `the same chain after its root published a revocation of link 0 (${chain[0]!.id.slice(0, 12)}…)`,
    'REVOKED',
  );
  if (context.failures.length === 0)
    context.note('widened, expired and foreign chains refused; a revocation on the relay honoured');
}
