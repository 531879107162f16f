/**
 * `definition.get` (additive, read-only): where the symbol at a zero-based position is defined.
 * Locations carry workspace-relative paths inside the root (absolute outside it, e.g. library
 * declarations), deduplicated, capped.
 */
import type { FileLocation } from '../lsp/engine-types.ts';
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { LocationsParams, LocationsResult } from './action-results.ts';
import { resolveFileTarget } from './file-target.ts';
import { capItems, itemLimit, toWireLocation } from './wire-format.ts';

/**
 * Params of a location query: `{ filePath, workspaceRoot, position, text?, maxItems? }`.
 * @param p the params reader
 * @returns validated params
 */
export function readLocationsParams(p: ActionParams): LocationsParams {
  const params: LocationsParams = { workspaceRoot: p.workspaceRoot(), filePath: p.filePath(), position: p.position() };
  const text = p.text();
  const maxItems = p.positiveInt('maxItems');
  if (text !== undefined) params.text = text;
  if (maxItems !== undefined) params.maxItems = maxItems;
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

/** `definition.get`: `{ filePath, workspaceRoot, position, text?, maxItems? }`. */
export const definitionGetAction: ActionDefinition<LocationsParams, LocationsResult> = {
  id: 'definition.get',
  writes: false,
  description: 'Go to definition: where the symbol at a zero-based position is defined (read-only).',
  parse: (raw) => readLocationsParams(new ActionParams(raw)),
  async run(params, services, invocation) {
    const { target, filePath } = resolveFileTarget(invocation.root, params.filePath, params.text);
    const locations = await services.engine.definition(target, params.position, { signal: invocation.signal });
    const capped = capItems(uniqueWireLocations(invocation.root, locations), itemLimit(params.maxItems, services.config));
    return {
      kind: 'definition',
      filePath,
      position: params.position,
      locations: capped.items,
      truncated: capped.truncated,
      total: capped.total,
    };
  },
};
