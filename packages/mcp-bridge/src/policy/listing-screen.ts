/**
 * Description linting for what a server offers besides its tools (docs/security.md, "Tool
 * pinning"): its `instructions` from `initialize`, and each prompt, resource and resource template
 * it lists. These reach a client's model as they are, like a tool's description, so the same lint
 * reads them (every string and key). By default (`description_lint: quarantine`) an entry with
 * findings is left out of the list the client gets, and flagged instructions are not passed on;
 * with `warn` they are passed on. Either way each finding is logged once at `warn`.
 * @module
 */
import { createHash } from 'node:crypto';
import type { BridgeLogger } from '../logger.js';
import { type DescriptionFinding, lintListedValue } from './description-lint.js';
import { escapeForDisplay } from './display-escape.js';

/** What a source's `description_lint` does with a flagged entry: leave it out, or pass it on. */
export type DescriptionLintMode = 'quarantine' | 'warn';

/** The lists a server's entries come from. */
export type ListMethod = 'prompts/list' | 'resources/list' | 'resources/templates/list';

const _WHAT: Record<ListMethod, string> = {
  'prompts/list': 'prompt',
  'resources/list': 'resource',
  'resources/templates/list': 'resource template',
};

/** The most distinct flagged texts remembered per source (so each is logged once). */
const _MAX_REMEMBERED = 4096;

/** The lint of one source's instructions and listings, with its mode and its once-only warnings. */
export class ListingScreen {
  readonly #source: string;
  readonly #mode: DescriptionLintMode;
  readonly #logger: BridgeLogger;
  readonly #logged = new Set<string>();

  constructor(options: { source: string; mode?: DescriptionLintMode | undefined; logger: BridgeLogger }) {
    this.#source = options.source;
    this.#mode = options.mode ?? 'quarantine';
    this.#logger = options.logger;
  }

  /** True when `entry` of a `method` listing may reach a client. */
  admits(method: ListMethod, entry: Readonly<Record<string, unknown>>): boolean {
    const findings = lintListedValue(entry);
    if (findings.length === 0) return true;
    const id = typeof entry.name === 'string' ? entry.name : String(entry.uri ?? entry.uriTemplate ?? '');
    this.#report(`${_WHAT[method]} ${escapeForDisplay(JSON.stringify(id))}`, entry, findings);
    return this.#mode === 'warn';
  }

  /** The server's `instructions` as a client may get them: `undefined` when flagged (unless `warn`). */
  instructions(text: string | undefined): string | undefined {
    if (text === undefined) return undefined;
    const findings = lintListedValue(text);
    if (findings.length === 0) return text;
    this.#report('instructions', text, findings);
    return this.#mode === 'warn' ? text : undefined;
  }

  /** Logs `findings` of `what` once per distinct value. */
  #report(what: string, value: unknown, findings: readonly DescriptionFinding[]): void {
    const key = createHash('sha256')
      .update(`${what}\0${JSON.stringify(value)}`)
      .digest('hex');
    if (this.#logged.has(key)) return;
    if (this.#logged.size >= _MAX_REMEMBERED) this.#logged.clear();
    this.#logged.add(key);
    const verdict =
      this.#mode === 'warn'
        ? 'passed on with findings (description_lint: warn)'
        : 'withheld from clients (description_lint: quarantine)';
    this.#logger.warn(
      { source: this.#source, findings: findings.map((f) => f.code) },
      `${what} of source ${this.#source} ${verdict}: ${findings.map((f) => f.message).join('; ')}`,
    );
  }
}
