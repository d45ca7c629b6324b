/**
 * Suite 6, the delegation chain check (docs/protocol.md §11.4), in this process: a 3-link chain
 * (root → department → team → agent, signed with `signDelegation` and real Ed25519 keys) checked
 * cold with `checkDelegationChain` (a chain it has never seen: three signatures, every time) and
 * memoized with `DelegationChainChecker` (the same chain again, as a new parsed copy the way it
 * arrives with each event), against the baseline `verifyEvent` of one signed event (shape, id and
 * one signature). All on the node:crypto backend, as the adapter runs. Interleaved rounds, the
 * order rotated; each peer's time per check is its round's batch time over the batch's checks.
 * @module
 */

import { randomBytes } from 'node:crypto';
import {
  checkDelegationChain,
  type Delegation,
  DelegationChainChecker,
  formatKey,
  signDelegation,
  signEvent,
  verifyEvent,
  type XpEvent,
} from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { median, quantile } from '../stats.js';
import type { SuiteOptions, SuiteResult } from '../suite.js';

const LINKS = 3;
const CAPABILITY = 'com.bench.docs.read';

interface _Peer {
  readonly name: string;
  /** Runs check `i` of a batch. */
  readonly run: (i: number) => boolean;
}

/** A new 3-link chain from `root`: each link issued by the previous delegate, its proof the previous id. */
function _chain(root: Uint8Array, at: number): Delegation[] {
  const links: Delegation[] = [];
  let issuer = root;
  for (let i = 0; i < LINKS; i++) {
    const delegate = new Uint8Array(randomBytes(32));
    links.push(
      signDelegation(
        {
          delegated_key: formatKey('ed25519', nodeSignatures.publicKey(delegate)),
          capabilities: [CAPABILITY],
          not_before: at - 60,
          expires_at: at + 86_400,
          ...(i > 0 && { proof: links[i - 1]!.id }),
        },
        issuer,
        nodeSignatures,
      ),
    );
    issuer = delegate;
  }
  return links;
}

/** A signed request as a caller sends it: a `p` tag, an `expiration` and 1 KiB of content. */
function _event(at: number): XpEvent {
  return signEvent(
    {
      created_at: at,
      kind: 'com.bench.docs.read',
      tags: [
        ['p', `ed25519:${'29'.repeat(32)}`],
        ['expiration', String(at + 30)],
      ],
      content: 'x'.repeat(1024),
    },
    new Uint8Array(randomBytes(32)),
    nodeSignatures,
  );
}

export async function chainSuite(options: SuiteOptions): Promise<SuiteResult> {
  const rounds = options.size === 'full' ? 15 : 5;
  const batch = options.size === 'full' ? 400 : 150;
  const at = Math.floor(Date.now() / 1000);
  const root = new Uint8Array(randomBytes(32));
  const trustedRoots = [formatKey('ed25519', nodeSignatures.publicKey(root))];
  options.log(`chain: signing ${rounds * batch} chains of ${LINKS} links`);
  // Cold: every check is of a chain not seen before (made up front, not timed).
  const fresh = Array.from({ length: rounds * batch }, () => _chain(root, at));
  const same = _chain(root, at);
  const sameText = JSON.stringify(same);
  // Memoized: the same chain, parsed anew for each check as it would be from each event.
  const copies = Array.from({ length: batch }, () => JSON.parse(sameText) as unknown);
  const checker = new DelegationChainChecker({ backend: nodeSignatures });
  if (!checker.check({ chain: same, trustedRoots, at }).ok) throw new Error('the bench chain is refused');
  const events = Array.from({ length: batch }, () => _event(at));
  let coldNext = 0;
  const peers: _Peer[] = [
    { name: 'verifyEvent, one event (baseline)', run: (i) => verifyEvent(events[i]!, nodeSignatures).ok },
    {
      name: 'checkDelegationChain, cold (a new chain each time)',
      run: () => checkDelegationChain({ chain: fresh[coldNext++]!, trustedRoots, at }, nodeSignatures).ok,
    },
    {
      name: 'DelegationChainChecker, memoized (the same chain again)',
      run: (i) => checker.check({ chain: copies[i]!, trustedRoots, at }).ok,
    },
  ];
  const perCheckUs = peers.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < peers.length; k++) {
      const index = (k + round) % peers.length;
      const peer = peers[index]!;
      const started = performance.now();
      for (let i = 0; i < batch; i++) {
        if (!peer.run(i)) throw new Error(`${peer.name}: refused`);
      }
      perCheckUs[index]!.push(((performance.now() - started) * 1000) / batch);
    }
  }
  const base = perCheckUs[0]!;
  const rows = peers.map((peer, index) => {
    const samples = perCheckUs[index]!;
    return {
      name: peer.name,
      checks: samples.length * batch,
      medianUs: median(samples),
      slowestUs: quantile(samples, 1),
      perSecond: 1e6 / median(samples),
      ratio: median(samples.map((us, round) => us / base[round]!)),
    };
  });
  return {
    id: 'chain',
    title: 'Delegation chain check',
    tables: [
      {
        caption: `a ${LINKS}-link chain, node:crypto, ${rounds} interleaved rounds of ${batch} checks`,
        header: ['check', 'checks', 'µs per check (median round)', 'slowest round µs', 'checks/s', 'ratio'],
        rows: rows.map((row) => [
          row.name,
          String(row.checks),
          row.medianUs.toFixed(1),
          row.slowestUs.toFixed(1),
          row.perSecond.toFixed(0),
          `${row.ratio.toFixed(2)}×`,
        ]),
      },
    ],
    ratios: { 'chain.cold/verify': rows[1]!.ratio, 'chain.memoized/verify': rows[2]!.ratio },
    data: rows,
  };
}
