/**
 * `hover.get` (additive, read-only): hover text at a zero-based position (MarkupContent and
 * MarkedStrings flattened to one Markdown/plain string). Nothing there is a result with
 * `found: false`, not an error. Additive: `symbol` addressing and `nearest` snapping.
 */
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { HoverGetParams, HoverGetResult, PositionParams } from './action-results.ts';
import { readNavigationTarget, resolveNavigationTarget } from './navigation-target.ts';

/**
 * Params of a read at a cursor: `{ filePath, workspaceRoot, position, text? }`.
 * @param raw wire params
 * @returns validated params
 */
export function parsePositionParams(raw: unknown): PositionParams {
  const p = new ActionParams(raw);
  const params: PositionParams = { workspaceRoot: p.workspaceRoot(), filePath: p.filePath(), position: p.position() };
  const text = p.text();
  if (text !== undefined) params.text = text;
  return params;
}

/** `hover.get`: `{ filePath, workspaceRoot, position, text? }` (or `symbol`). */
export const hoverGetAction: ActionDefinition<HoverGetParams, HoverGetResult> = {
  id: 'hover.get',
  writes: false,
  description: 'Hover information (type, documentation) at a zero-based position, or for a symbol named by symbol (read-only).',
  parse: (raw) => readNavigationTarget(new ActionParams(raw)),
  async run(params, services, invocation) {
    const resolved = await resolveNavigationTarget(params, services, invocation);
    const hover = await services.engine.hover(resolved.file.target, resolved.position, { signal: invocation.signal });
    const result: HoverGetResult = {
      kind: 'hover',
      filePath: resolved.file.filePath,
      position: resolved.position,
      found: hover !== null && hover.contents.trim() !== '',
      contents: hover?.contents ?? '',
    };
    if (hover?.range) result.range = hover.range;
    if (hover) result.serverId = hover.serverId;
    if (resolved.name !== undefined) result.name = resolved.name;
    if (resolved.note !== undefined) result.note = resolved.note;
    return result;
  },
};
