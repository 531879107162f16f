/**
 * `references.get` (additive, read-only): every reference to the symbol at a zero-based
 * position across the workspace (`includeDeclaration` defaults to true), deduplicated, ordered
 * by file then position, capped.
 */
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { LocationsResult, ReferencesGetParams } from './action-results.ts';
import { readLocationsParams, uniqueWireLocations } from './definition-get.ts';
import { resolveFileTarget } from './file-target.ts';
import { capItems, itemLimit } from './wire-format.ts';

/**
 * @param raw wire params
 * @returns validated `references.get` params
 */
export function parseReferencesGetParams(raw: unknown): ReferencesGetParams {
  const p = new ActionParams(raw);
  const params: ReferencesGetParams = readLocationsParams(p);
  const includeDeclaration = p.boolean('includeDeclaration');
  if (includeDeclaration !== undefined) params.includeDeclaration = includeDeclaration;
  return params;
}

/** `references.get`: `{ filePath, workspaceRoot, position, includeDeclaration?, text?, maxItems? }`. */
export const referencesGetAction: ActionDefinition<ReferencesGetParams, LocationsResult> = {
  id: 'references.get',
  writes: false,
  description: 'Find all references to the symbol at a zero-based position across the workspace (read-only).',
  parse: parseReferencesGetParams,
  async run(params, services, invocation) {
    const { target, filePath } = resolveFileTarget(invocation.root, params.filePath, params.text);
    const locations = await services.engine.references(target, params.position, {
      signal: invocation.signal,
      includeDeclaration: params.includeDeclaration ?? true,
    });
    const sorted = uniqueWireLocations(invocation.root, locations).sort(
      (a, b) =>
        (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0) ||
        a.range.start.line - b.range.start.line ||
        a.range.start.character - b.range.start.character,
    );
    const capped = capItems(sorted, itemLimit(params.maxItems, services.config));
    return {
      kind: 'references',
      filePath,
      position: params.position,
      locations: capped.items,
      truncated: capped.truncated,
      total: capped.total,
    };
  },
};
