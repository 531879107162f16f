/**
 * `callHierarchy.get` (additive, read-only, issue 22): who calls the function or method at a
 * zero-based position (`direction: "incoming"`), or what it calls (`"outgoing"`), one entry per
 * call site, ordered by file then position, capped. Addressing as `definition.get` (`symbol`,
 * `nearest`); `withSource` gives each call site its line. Nothing callable there is a result with
 * empty `items`, not an error.
 */
import type { CallHierarchyNode } from '../lsp/engine-types.ts';
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams, invalid } from './action-params.ts';
import type { CallHierarchyGetParams, CallHierarchyGetResult, WireCallItem, WireCallSite } from './action-results.ts';
import { compareLocations } from './definition-get.ts';
import { wirePath } from './file-target.ts';
import { attachLineTexts } from './location-lines.ts';
import { readNavigationTarget, resolveNavigationTarget } from './navigation-target.ts';
import { capItems, itemLimit } from './wire-format.ts';

/**
 * @param raw wire params
 * @returns validated `callHierarchy.get` params
 */
export function parseCallHierarchyParams(raw: unknown): CallHierarchyGetParams {
  const p = new ActionParams(raw);
  const direction = p.string('direction') ?? 'incoming';
  if (direction !== 'incoming' && direction !== 'outgoing') throw invalid('params.direction must be "incoming" or "outgoing"');
  const params: CallHierarchyGetParams = { ...readNavigationTarget(p), direction };
  const maxItems = p.positiveInt('maxItems');
  const withSource = p.boolean('withSource');
  if (maxItems !== undefined) params.maxItems = maxItems;
  if (withSource !== undefined) params.withSource = withSource;
  return params;
}

/**
 * @param root workspace root
 * @param node an engine call hierarchy node
 * @returns the wire item
 */
export function toWireCallItem(root: string, node: CallHierarchyNode): WireCallItem {
  const item: WireCallItem = { name: node.name, kind: node.kind, filePath: wirePath(root, node.path), range: node.range, selectionRange: node.selectionRange };
  if (node.detail !== undefined) item.detail = node.detail;
  return item;
}

/** `callHierarchy.get`: `{ workspaceRoot, filePath, position | symbol, direction?, maxItems?, withSource?, nearest? }`. */
export const callHierarchyGetAction: ActionDefinition<CallHierarchyGetParams, CallHierarchyGetResult> = {
  id: 'callHierarchy.get',
  writes: false,
  description: 'Call hierarchy: the call sites of the function or method at a zero-based position (incoming) or the calls it makes (outgoing) (read-only).',
  parse: parseCallHierarchyParams,
  async run(params, services, invocation) {
    const { root, signal } = invocation;
    const resolved = await resolveNavigationTarget(params, services, invocation);
    const answer = await services.engine.callHierarchy(resolved.file.target, resolved.position, params.direction, { signal });
    const seen = new Set<string>();
    const sites: WireCallSite[] = [];
    for (const edge of answer.edges) {
      const other = toWireCallItem(root, edge.node);
      const filePath = wirePath(root, edge.sitesPath);
      for (const range of edge.sites) {
        const key = `${filePath}\0${range.start.line}:${range.start.character}\0${other.filePath}:${other.selectionRange.start.line}`;
        if (seen.has(key)) continue;
        seen.add(key);
        sites.push({ filePath, range, other });
      }
    }
    const capped = capItems(sites.sort((a, b) => compareLocations(a, b) || compareLocations(a.other, b.other) || (a.other.name < b.other.name ? -1 : a.other.name > b.other.name ? 1 : 0)), itemLimit(params.maxItems, services.config));
    if (params.withSource === true) await attachLineTexts(root, capped.items, services.engine, signal);
    const result: CallHierarchyGetResult = {
      kind: 'callHierarchy',
      direction: params.direction,
      filePath: resolved.file.filePath,
      position: resolved.position,
      serverId: answer.serverId,
      items: answer.items.map((node) => toWireCallItem(root, node)),
      calls: capped.items,
      truncated: capped.truncated,
      total: capped.total,
    };
    if (resolved.name !== undefined) result.name = resolved.name;
    if (resolved.note !== undefined) result.note = resolved.note;
    return result;
  },
};
