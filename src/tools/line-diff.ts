/**
 * Line diffs for diff cards: the shared edit script (`src/edits/line-edit-script.ts`) grouped
 * into hunks with three lines of context, the shape the harness's own write tools present.
 */
import type { FileDiff } from '@deepseek-ai/dsh-tools';
import { DEFAULT_MAX_EDITS, lineEditScript, type LineOp } from '../edits/line-edit-script.ts';

/** Context lines on each side of a hunk (the harness write tools use the same). */
export const DIFF_CONTEXT = 3;

/**
 * @param text file content
 * @returns its lines (a trailing newline does not start an extra line)
 */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * Hunks between two texts, each with {@link DIFF_CONTEXT} lines of context; pure insertions
 * have `oldText: null`.
 * @param path the path to stamp on each hunk (model-facing)
 * @param before text before the change
 * @param after text after the change
 * @param maxEdits bound on the diff search
 * @returns one diff per hunk, in file order; empty when the texts are equal
 */
export function hunkDiffs(path: string, before: string, after: string, maxEdits = DEFAULT_MAX_EDITS): FileDiff[] {
  if (before === after) return [];
  const { ops, a, b } = lineOps(before, after, maxEdits);
  if (!ops.some((op) => op !== 'equal')) {
    // Only a trailing newline (or nothing visible) changed: show the last line with its context.
    return [{ path, oldText: a.slice(-DIFF_CONTEXT).map(clean).join('\n') || null, newText: b.slice(-DIFF_CONTEXT).map(clean).join('\n') }];
  }
  return groupHunks(path, ops, a, b);
}

/**
 * Lines of the new text that a change touched, as one-based inclusive ranges; a deletion marks
 * the line that now stands where the deleted lines were.
 * @param before text before the change
 * @param after text after the change
 * @param maxEdits bound on the diff search
 * @returns ranges in order, merged when adjacent; empty when the texts are equal
 */
export function changedLines(before: string, after: string, maxEdits = DEFAULT_MAX_EDITS): Array<[number, number]> {
  if (before === after) return [];
  const { ops, b } = lineOps(before, after, maxEdits);
  const marks: number[] = [];
  let bi = 0;
  for (const op of ops) {
    if (op === 'equal') bi++;
    else if (op === 'insert') marks.push(bi++);
    else marks.push(Math.min(bi, Math.max(b.length - 1, 0)));
  }
  if (marks.length === 0) marks.push(Math.max(b.length - 1, 0));
  const ranges: Array<[number, number]> = [];
  for (const line of marks) {
    const n = line + 1;
    const last = ranges.at(-1);
    if (last && n <= last[1] + 1) last[1] = Math.max(last[1], n);
    else ranges.push([n, n]);
  }
  return ranges;
}

/** Splits both texts and computes the line edit script. */
function lineOps(before: string, after: string, maxEdits: number): { ops: LineOp[]; a: string[]; b: string[] } {
  const a = splitLines(before);
  const b = splitLines(after);
  return { ops: lineEditScript(a, b, maxEdits), a, b };
}

/** Groups an edit script into context hunks; changes closer than 2 × context share a hunk. */
function groupHunks(path: string, ops: readonly LineOp[], a: readonly string[], b: readonly string[]): FileDiff[] {
  const out: FileDiff[] = [];
  let i = 0;
  let ai = 0;
  let bi = 0;
  while (i < ops.length) {
    if (ops[i] === 'equal') {
      i++;
      ai++;
      bi++;
      continue;
    }
    // A change starts at op i: take context before it, then extend while changes keep coming.
    const lead = Math.min(DIFF_CONTEXT, ai, bi);
    const oldLines = a.slice(ai - lead, ai).map(clean);
    const newLines = b.slice(bi - lead, bi).map(clean);
    let equalRun = 0;
    while (i < ops.length) {
      const op = ops[i];
      if (op === 'equal') {
        let run = 0;
        while (i + run < ops.length && ops[i + run] === 'equal') run++;
        if (i + run >= ops.length || run > 2 * DIFF_CONTEXT) {
          equalRun = Math.min(run, DIFF_CONTEXT);
          break;
        }
      }
      if (op !== 'insert') oldLines.push(clean(a[ai++] as string));
      if (op !== 'delete') newLines.push(clean(b[bi++] as string));
      i++;
    }
    for (let c = 0; c < equalRun; c++) {
      oldLines.push(clean(a[ai + c] as string));
      newLines.push(clean(b[bi + c] as string));
    }
    out.push({ path, oldText: oldLines.length > 0 ? oldLines.join('\n') : null, newText: newLines.join('\n') });
  }
  return out;
}

/** Drops the `\r` of a CRLF line for display. */
function clean(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
