// Long functions (docs/architecture.md, "Checks"): a function whose body runs over the limit must
// be a composition of named steps, or say right above it, in a comment that starts with
// `Kept whole:`, why it must stay in one piece. Nested functions are measured on their own.
import ts from 'typescript';

/** The longest a function may be, in lines from its first to its last, without a `Kept whole:` comment. */
export const MAX_FUNCTION_LINES = 120;

/** A function over the limit: where it starts, its name as a reader finds it, and its length. */
export interface LongFunction {
  line: number;
  name: string;
  lines: number;
}

/** The functions of `source` over `max` lines that carry no `Kept whole:` comment. */
export function longFunctions(file: string, source: string, max = MAX_FUNCTION_LINES): LongFunction[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max && !_keptWhole(sf, node))
        found.push({ line: first + 1, name: _nameOf(node, sf), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Whether a comment starting `Kept whole:` stands right above the function (or its declaration). */
function _keptWhole(sf: ts.SourceFile, node: ts.Node): boolean {
  // An arrow function or function expression is introduced by the statement or property it sits in.
  let holder: ts.Node = node;
  while (
    holder.parent !== undefined &&
    (ts.isVariableDeclaration(holder.parent) ||
      ts.isVariableDeclarationList(holder.parent) ||
      ts.isVariableStatement(holder.parent) ||
      ts.isPropertyAssignment(holder.parent) ||
      ts.isPropertyDeclaration(holder.parent) ||
      ts.isExportAssignment(holder.parent))
  )
    holder = holder.parent;
  const comments = ts.getLeadingCommentRanges(sf.text, holder.getFullStart()) ?? [];
  return comments.some((c) => /^(\/\/|\/\*+|\s*\*)\s*Kept whole:/m.test(sf.text.slice(c.pos, c.end)));
}

function _nameOf(node: ts.SignatureDeclaration, sf: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(sf);
  const parent = node.parent;
  if (parent !== undefined && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
    return parent.name.getText(sf);
  return '(anonymous)';
}
