/**
 * Line diffs for result summaries: how many lines a write changed, and a unified-diff-like
 * preview of an edit. Lines keep their `\r`, so a line-ending change counts as a change.
 * The edit script is the shared one of `src/edits/line-edit-script.ts`.
 */
import { lineEditScript } from '../edits/line-edit-script.ts';

/** Differing lines past which a summary treats the changed middle as one replaced block. */
export const SUMMARY_MAX_EDITS = 1_000;

/** One line of a diff. */
export interface DiffOp {
  type: 'equal' | 'delete' | 'insert';
  text: string;
}

/**
 * @param before old text
 * @param after new text
 * @returns the line operations turning `before` into `after`
 */
export function diffLines(before: string, after: string): DiffOp[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const ops: DiffOp[] = [];
  let i = 0;
  let j = 0;
  for (const type of lineEditScript(a, b, SUMMARY_MAX_EDITS)) {
    const text = (type === 'insert' ? b[j] : a[i]) ?? '';
    if (type !== 'insert') i++;
    if (type !== 'delete') j++;
    ops.push({ type, text });
  }
  return ops;
}

/**
 * Number of lines that differ: per block of consecutive changes, the larger of lines removed
 * and lines added (a modified line counts once; an inserted or deleted line counts once).
 * @param before old text
 * @param after new text
 * @returns lines changed; 0 when the texts are equal
 */
export function countChangedLines(before: string, after: string): number {
  if (before === after) return 0;
  let total = 0;
  let deleted = 0;
  let inserted = 0;
  for (const op of diffLines(before, after)) {
    if (op.type === 'delete') deleted++;
    else if (op.type === 'insert') inserted++;
    else {
      total += Math.max(deleted, inserted);
      deleted = 0;
      inserted = 0;
    }
  }
  return total + Math.max(deleted, inserted);
}

/**
 * A unified-diff-like rendering (`@@ -l,n +l,n @@` headers, one-based; ` `/`-`/`+` lines).
 * @param before old text
 * @param after new text
 * @param context unchanged lines shown around each change
 * @returns the hunks, `\n`-joined; empty when the texts are equal
 */
export function unifiedDiff(before: string, after: string, context = 2): string {
  if (before === after) return '';
  const ops = diffLines(before, after);
  const changed = ops.flatMap((op, i) => (op.type === 'equal' ? [] : [i]));
  const groups: Array<[number, number]> = [];
  for (const i of changed) {
    const last = groups.at(-1);
    if (last && i - last[1] <= 2 * context + 1) last[1] = i;
    else groups.push([i, i]);
  }
  // Line numbers before/after at every op index.
  const aLine: number[] = [];
  const bLine: number[] = [];
  let la = 1;
  let lb = 1;
  for (const op of ops) {
    aLine.push(la);
    bLine.push(lb);
    if (op.type !== 'insert') la++;
    if (op.type !== 'delete') lb++;
  }
  const out: string[] = [];
  for (const [first, last] of groups) {
    const from = Math.max(0, first - context);
    const to = Math.min(ops.length - 1, last + context);
    const slice = ops.slice(from, to + 1);
    const countA = slice.filter((op) => op.type !== 'insert').length;
    const countB = slice.filter((op) => op.type !== 'delete').length;
    out.push(`@@ -${aLine[from] ?? 1},${countA} +${bLine[from] ?? 1},${countB} @@`);
    for (const op of slice) out.push(`${op.type === 'equal' ? ' ' : op.type === 'delete' ? '-' : '+'}${op.text}`);
  }
  return out.join('\n');
}
