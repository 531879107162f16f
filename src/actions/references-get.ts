/**
 * `references.get` (additive, read-only): every reference to the symbol at a zero-based
 * position across the workspace (`includeDeclaration` defaults to true), deduplicated, ordered
 * by file then position, capped. Additive: `symbol` addressing, `nearest`, `withSource`, and
 * `markDeclarations` (the definition is asked too and matching references are marked).
 */
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { LocationsResult, ReferencesGetParams } from './action-results.ts';
import { readLocationsParams, runLocationsQuery, uniqueWireLocations } from './definition-get.ts';
import { markDeclarations } from './location-lines.ts';

/**
 * @param raw wire params
 * @returns validated `references.get` params
 */
export function parseReferencesGetParams(raw: unknown): ReferencesGetParams {
  const p = new ActionParams(raw);
  const params: ReferencesGetParams = readLocationsParams(p);
  const includeDeclaration = p.boolean('includeDeclaration');
  const mark = p.boolean('markDeclarations');
  if (includeDeclaration !== undefined) params.includeDeclaration = includeDeclaration;
  if (mark !== undefined) params.markDeclarations = mark;
  return params;
}

/** `references.get`: `{ filePath, workspaceRoot, position, includeDeclaration?, text?, maxItems? }` (or `symbol`). */
export const referencesGetAction: ActionDefinition<ReferencesGetParams, LocationsResult> = {
  id: 'references.get',
  writes: false,
  description: 'Find all references to the symbol at a zero-based position (or named by symbol) across the workspace (read-only).',
  parse: parseReferencesGetParams,
  async run(params, services, invocation) {
    const { engine } = services;
    const { signal, root } = invocation;
    let declarations: LocationsResult['locations'] = [];
    const result = await runLocationsQuery(
      'references',
      params,
      services,
      invocation,
      async (r) => {
        const [references, definition] = await Promise.all([
          engine.references(r.file.target, r.position, { signal, includeDeclaration: params.includeDeclaration ?? true }),
          params.markDeclarations === true ? engine.definition(r.file.target, r.position, { signal }) : Promise.resolve([]),
        ]);
        declarations = uniqueWireLocations(root, definition);
        return references;
      },
      true,
    );
    if (params.markDeclarations === true) markDeclarations(result.locations, declarations);
    return result;
  },
};
