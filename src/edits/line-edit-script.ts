/**
 * The one line-diff engine: the shortest edit script between two line arrays (Myers' O(ND)
 * algorithm), with common prefix and suffix trimmed first. Result summaries (`linesChanged`,
 * edit previews) and diff cards are all derived from it. Bounded: past `maxEdits` differing
 * lines the changed middle becomes one replaced block.
 */

/** One step of an edit script, per line. */
export type LineOp = 'equal' | 'delete' | 'insert';

/** Beyond this many inserted + deleted lines, skip the search and replace the middle whole. */
export const DEFAULT_MAX_EDITS = 2_000;

/**
 * @param a lines before
 * @param b lines after
 * @param maxEdits bound on the search
 * @returns one op per line step turning `a` into `b`
 */
export function lineEditScript(a: readonly string[], b: readonly string[], maxEdits = DEFAULT_MAX_EDITS): LineOp[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  const mid = shortestScript(midA, midB, maxEdits) ?? [...midA.map((): LineOp => 'delete'), ...midB.map((): LineOp => 'insert')];
  return [...Array<LineOp>(prefix).fill('equal'), ...mid, ...Array<LineOp>(suffix).fill('equal')];
}

/**
 * Myers' shortest edit script.
 * @returns the ops, or undefined when more than `maxEdits` edits are needed
 */
function shortestScript(a: readonly string[], b: readonly string[], maxEdits: number): LineOp[] | undefined {
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
function backtrack(trace: readonly Int32Array[], dEnd: number, n: number, m: number): LineOp[] {
  const ops: LineOp[] = [];
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
