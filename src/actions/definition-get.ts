/**
 * `definition.get` (additive, read-only): where the symbol at a zero-based position is defined.
 * Locations carry workspace-relative paths inside the root (absolute outside it, e.g. library
 * declarations), deduplicated, capped. Additive: a `symbol` instead of a position, `nearest`
 * snapping, `withSource` line texts (issue 22, docs/navigation.md).
 */
import type { FileLocation } from '../lsp/engine-types.ts';
import type { ActionDefinition, ActionInvocation, ActionServices } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { LocationsParams, LocationsResult } from './action-results.ts';
import { attachLineTexts } from './location-lines.ts';
import { readNavigationTarget, resolveNavigationTarget, type ResolvedTarget } from './navigation-target.ts';
import { capItems, itemLimit, toWireLocation } from './wire-format.ts';

/**
 * Params of a location query: `{ filePath, workspaceRoot, position, text?, maxItems? }`, or
 * `symbol` (+ optional `filePath`) instead of the position; `nearest`, `anchorPaths`, `withSource`.
 * @param p the params reader
 * @returns validated params
 */
export function readLocationsParams(p: ActionParams): LocationsParams {
  const params: LocationsParams = readNavigationTarget(p);
  const maxItems = p.positiveInt('maxItems');
  const withSource = p.boolean('withSource');
  if (maxItems !== undefined) params.maxItems = maxItems;
  if (withSource !== undefined) params.withSource = withSource;
  return params;
}

/**
 * @param root workspace root
 * @param locations engine locations
 * @returns wire locations, exact duplicates dropped, order kept
 */
export function uniqueWireLocations(root: string, locations: readonly FileLocation[]): LocationsResult['locations'] {
  const seen = new Set<string>();
  const out: LocationsResult['locations'] = [];
  for (const location of locations) {
    const { start, end } = location.range;
    const key = `${location.path}\0${start.line}:${start.character}-${end.line}:${end.character}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(toWireLocation(root, location));
  }
  return out;
}

/**
 * @param a a wire location
 * @param b another
 * @returns file, then line, then column order
 */
export function compareLocations(a: { filePath: string; range: LocationsResult['locations'][number]['range'] }, b: typeof a): number {
  return (
    (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0) ||
    a.range.start.line - b.range.start.line ||
    a.range.start.character - b.range.start.character
  );
}

/**
 * The shared body of the location actions: resolve where to ask, ask, dedupe, (sort,) cap, add line texts.
 * @param kind result kind
 * @param params validated params
 * @param services engine and config
 * @param invocation root and signal
 * @param ask the engine request at the resolved target
 * @param sort whether to order by file and position (else: the server's order)
 * @returns the result
 */
export async function runLocationsQuery(
  kind: LocationsResult['kind'],
  params: LocationsParams,
  services: ActionServices,
  invocation: ActionInvocation,
  ask: (resolved: ResolvedTarget) => Promise<FileLocation[]>,
  sort: boolean,
): Promise<LocationsResult> {
  const resolved = await resolveNavigationTarget(params, services, invocation);
  const unique = uniqueWireLocations(invocation.root, await ask(resolved));
  const capped = capItems(sort ? unique.sort(compareLocations) : unique, itemLimit(params.maxItems, services.config));
  if (params.withSource === true) await attachLineTexts(invocation.root, capped.items, services.engine, invocation.signal);
  const result: LocationsResult = {
    kind,
    filePath: resolved.file.filePath,
    position: resolved.position,
    locations: capped.items,
    truncated: capped.truncated,
    total: capped.total,
  };
  if (resolved.name !== undefined) result.name = resolved.name;
  if (resolved.note !== undefined) result.note = resolved.note;
  return result;
}

/** `definition.get`: `{ filePath, workspaceRoot, position, text?, maxItems? }` (or `symbol`). */
export const definitionGetAction: ActionDefinition<LocationsParams, LocationsResult> = {
  id: 'definition.get',
  writes: false,
  description: 'Go to definition: where the symbol at a zero-based position (or named by symbol) is defined (read-only).',
  parse: (raw) => readLocationsParams(new ActionParams(raw)),
  run: (params, services, invocation) =>
    runLocationsQuery('definition', params, services, invocation, (r) => services.engine.definition(r.file.target, r.position, { signal: invocation.signal }), false),
};
