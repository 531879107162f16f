/**
 * Line diffs for diff cards: Myers' O(ND) algorithm over lines, grouped into hunks with three
 * lines of context, the shape the harness's own write tools present. Pure and bounded: past
 * `maxEdits` differing lines the changed middle is shown as one hunk instead.
 */
import type { FileDiff } from '@deepseek-ai/dsh-tools';

/** Context lines on each side of a hunk (the harness write tools use the same). */
export const DIFF_CONTEXT = 3;

/** Beyond this many inserted + deleted lines, skip the search and show one hunk. */
const DEFAULT_MAX_EDITS = 2_000;

type Op = 'equal' | 'delete' | 'insert';

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
 * Myers' shortest edit script between two line arrays.
 * @returns one op per line step, or undefined when more than `maxEdits` edits are needed
 */
function editScript(a: readonly string[], b: readonly string[], maxEdits: number): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const trace: Int32Array[] = [];
  // Round d writes V_d[k] at index k + d + 2; round d reads V_(d-1)[k'] at k' + d + 1.
  let v = new Int32Array(3);
  for (let d = 0; d <= Math.min(n + m, maxEdits); d++) {
    trace.push(v);
    const next = new Int32Array(2 * d + 5);
    const get = (k: number): number => v[k + d + 1] ?? 0;
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && get(k - 1) < get(k + 1)) ? get(k + 1) : get(k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[k + d + 2] = x;
      if (x >= n && y >= m) return backtrack(trace, d, n, m);
    }
    v = next;
  }
  return undefined;
}

/** Walks the recorded rounds back from (n, m) to (0, 0). */
function backtrack(trace: readonly Int32Array[], dEnd: number, n: number, m: number): Op[] {
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d >= 0; d--) {
    const v = trace[d] as Int32Array;
    const get = (k: number): number => v[k + d + 1] ?? 0;
    const k = x - y;
    const prevK = d === 0 ? 0 : k === -d || (k !== d && get(k - 1) < get(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : get(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push('equal');
      x--;
      y--;
    }
    if (d > 0) ops.push(x === prevX ? 'insert' : 'delete');
    x = prevX;
    y = prevY;
  }
  return ops.toReversed();
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

/** Splits both texts and computes the line edit script (prefix and suffix trimmed first). */
function lineOps(before: string, after: string, maxEdits: number): { ops: Op[]; a: string[]; b: string[] } {
  const a = splitLines(before);
  const b = splitLines(after);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  const mid = editScript(midA, midB, maxEdits) ?? [...midA.map((): Op => 'delete'), ...midB.map((): Op => 'insert')];
  return { ops: [...Array<Op>(prefix).fill('equal'), ...mid, ...Array<Op>(suffix).fill('equal')], a, b };
}

/** Groups an edit script into context hunks; changes closer than 2 × context share a hunk. */
function groupHunks(path: string, ops: readonly Op[], a: readonly string[], b: readonly string[]): FileDiff[] {
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
