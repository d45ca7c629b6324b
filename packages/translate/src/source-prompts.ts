/**
 * A source's prompts and resource templates (docs/protocol.md §10.11), translated one by one and
 * then settled by the same collision rule as its tools: of the entries that map to one kind, the
 * single one whose name needed no mapping keeps it (and only when no other entry has its name);
 * the others are refused.
 * @module
 */
import type { SchemaContract } from './contract.js';
import { type TranslatePromptContext, translatePrompt } from './translate-prompt.js';
import { translateResourceTemplate } from './translate-resource-template.js';
import type { Refusal, TranslationWarning } from './translation-report.js';

/** Where the prompts' outcomes go: the source's lists, in the order they are filled. */
export interface _PromptOutcomes {
  readonly contracts: SchemaContract[];
  readonly refused: Refusal[];
  readonly warnings: TranslationWarning[];
}

/** A translated prompt, waiting for the collision rule. */
interface _TranslatedPrompt {
  name: string;
  contract: SchemaContract;
  warnings: TranslationWarning[];
}

/** The entries besides tools that become contracts. */
type _Entry = 'prompt' | 'resource_template';

/** Translates every prompt (or resource template) and files each contract, warning and refusal into `out`. */
export function _translateSourcePrompts(
  entries: readonly unknown[],
  ctx: TranslatePromptContext,
  out: _PromptOutcomes,
  entry: _Entry = 'prompt',
): void {
  const groups = _translateByKind(entries, ctx, out.refused, entry);
  for (const [kind, group] of groups) _settlePromptCollision(kind, group, out, entry);
}

/** Translates each entry, grouping the translated ones by kind; refusals go to `refused`. */
function _translateByKind(
  entries: readonly unknown[],
  ctx: TranslatePromptContext,
  refused: Refusal[],
  entry: _Entry,
): Map<string, _TranslatedPrompt[]> {
  const groups = new Map<string, _TranslatedPrompt[]>();
  const translate = entry === 'prompt' ? translatePrompt : translateResourceTemplate;
  for (const value of entries) {
    const r = translate(value, ctx);
    if (!r.ok) {
      refused.push(r.refusal);
      continue;
    }
    const name = (value as { name: string }).name;
    groups.set(r.contract.kind, [
      ...(groups.get(r.contract.kind) ?? []),
      { name, contract: r.contract, warnings: r.warnings },
    ]);
  }
  return groups;
}

/** Publishes the one prompt that keeps `kind`, if any, and refuses the rest of its group. */
function _settlePromptCollision(
  kind: string,
  group: readonly _TranslatedPrompt[],
  out: _PromptOutcomes,
  entry: _Entry,
): void {
  const unmapped = group.filter((p) => kind.endsWith(`.${p.name}`));
  const keeper =
    group.length === 1
      ? group[0]
      : unmapped.length === 1 && group.filter((p) => p.name === unmapped[0]?.name).length === 1
        ? unmapped[0]
        : undefined;
  for (const p of group) {
    if (p === keeper) {
      out.contracts.push(p.contract);
      out.warnings.push(...p.warnings);
    } else
      out.refused.push({
        tool: p.name,
        entry,
        code: 'NAME_COLLISION',
        reason: `${entry === 'prompt' ? 'prompt' : 'resource template'} ${JSON.stringify(p.name)} maps to kind ${kind}, which ${group.length - 1} other entr${group.length > 2 ? 'ies' : 'y'} also map${group.length > 2 ? '' : 's'} to`,
      });
  }
}
