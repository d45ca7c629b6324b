/**
 * A source's prompts (docs/design.md §6), translated one by one and then settled by the same
 * collision rule as its tools: of the prompts that map to one kind, the single one whose name needed
 * no mapping keeps it (and only when no other prompt has its name); the others are refused.
 * @module
 */
import type { SchemaContract } from './contract.js';
import { type TranslatePromptContext, translatePrompt } from './translate-prompt.js';
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

/** Translates every prompt and files each contract, warning and refusal into `out`. */
export function _translateSourcePrompts(
  prompts: readonly unknown[],
  ctx: TranslatePromptContext,
  out: _PromptOutcomes,
): void {
  const groups = _translateByKind(prompts, ctx, out.refused);
  for (const [kind, group] of groups) _settlePromptCollision(kind, group, out);
}

/** Translates each prompt, grouping the translated ones by kind; refusals go to `refused`. */
function _translateByKind(
  prompts: readonly unknown[],
  ctx: TranslatePromptContext,
  refused: Refusal[],
): Map<string, _TranslatedPrompt[]> {
  const groups = new Map<string, _TranslatedPrompt[]>();
  for (const value of prompts) {
    const r = translatePrompt(value, ctx);
    if (!r.ok) {
      refused.push(r.refusal);
      continue;
    }
    const name = (r.contract.source as { mcp_prompt: string }).mcp_prompt;
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
        entry: 'prompt',
        code: 'NAME_COLLISION',
        reason: `prompt ${JSON.stringify(p.name)} maps to kind ${kind}, which ${group.length - 1} other prompt(s) also map to`,
      });
  }
}
