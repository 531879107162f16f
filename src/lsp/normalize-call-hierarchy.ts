/**
 * Call hierarchy answers: `CallHierarchyItem[]` from `textDocument/prepareCallHierarchy`, and
 * `CallHierarchyIncomingCall[]` / `CallHierarchyOutgoingCall[]` → {@link CallHierarchyNode}s and
 * {@link CallHierarchyEdge}s (paths, UTF-16). Items outside files (virtual documents) are skipped.
 */
import type { CallHierarchyEdge, CallHierarchyNode } from './engine-types.ts';
import { isObject, malformed, optString, readArray, readRange, uriToPath, type NormalizeContext } from './normalize-common.ts';

/**
 * @param ctx normaliser context
 * @param raw one `CallHierarchyItem`
 * @param what where it was (for errors)
 * @returns the node, or undefined when it is not in a file
 */
export function normalizeCallItem(ctx: NormalizeContext, raw: unknown, what: string): CallHierarchyNode | undefined {
  if (!isObject(raw) || typeof raw.name !== 'string' || typeof raw.kind !== 'number') throw malformed(ctx, `${what} is not a CallHierarchyItem`);
  const path = uriToPath(raw.uri);
  if (path === undefined) return undefined;
  const range = readRange(ctx, raw.range, path, `${what}.range`);
  const node: CallHierarchyNode = {
    name: raw.name,
    kind: raw.kind,
    path,
    range,
    selectionRange: raw.selectionRange === undefined ? range : readRange(ctx, raw.selectionRange, path, `${what}.selectionRange`),
  };
  const detail = optString(raw.detail);
  if (detail !== undefined && detail !== '') node.detail = detail;
  return node;
}

/**
 * @param ctx normaliser context
 * @param raw the `textDocument/prepareCallHierarchy` answer
 * @returns the prepared items paired with the raw item each came from (sent back for the calls)
 */
export function normalizePreparedItems(ctx: NormalizeContext, raw: unknown): Array<{ node: CallHierarchyNode; raw: unknown }> {
  const out: Array<{ node: CallHierarchyNode; raw: unknown }> = [];
  readArray(ctx, raw, 'prepareCallHierarchy').forEach((item, i) => {
    const node = normalizeCallItem(ctx, item, `prepareCallHierarchy[${i}]`);
    if (node !== undefined) out.push({ node, raw: item });
  });
  return out;
}

/**
 * @param ctx normaliser context
 * @param raw the `callHierarchy/incomingCalls` or `outgoingCalls` answer
 * @param direction which request
 * @param itemPath the prepared item's file (outgoing call sites are in it)
 * @returns one edge per call, in answer order
 */
export function normalizeCalls(ctx: NormalizeContext, raw: unknown, direction: 'incoming' | 'outgoing', itemPath: string): CallHierarchyEdge[] {
  const what = `callHierarchy/${direction}Calls`;
  const out: CallHierarchyEdge[] = [];
  readArray(ctx, raw, what).forEach((call, i) => {
    if (!isObject(call)) throw malformed(ctx, `${what}[${i}] is not a call`);
    const node = normalizeCallItem(ctx, direction === 'incoming' ? call.from : call.to, `${what}[${i}].${direction === 'incoming' ? 'from' : 'to'}`);
    if (node === undefined) return;
    const sitesPath = direction === 'incoming' ? node.path : itemPath;
    const sites = readArray(ctx, call.fromRanges, `${what}[${i}].fromRanges`).map((range, j) => readRange(ctx, range, sitesPath, `${what}[${i}].fromRanges[${j}]`));
    out.push({ node, sitesPath, sites });
  });
  return out;
}
