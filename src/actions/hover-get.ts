/**
 * `hover.get` (additive, read-only): hover text at a zero-based position (MarkupContent and
 * MarkedStrings flattened to one Markdown/plain string). Nothing there is a result with
 * `found: false`, not an error.
 */
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { HoverGetResult, PositionParams } from './action-results.ts';
import { resolveFileTarget } from './file-target.ts';

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

/** `hover.get`: `{ filePath, workspaceRoot, position, text? }`. */
export const hoverGetAction: ActionDefinition<PositionParams, HoverGetResult> = {
  id: 'hover.get',
  writes: false,
  description: 'Hover information (type, documentation) at a zero-based position (read-only).',
  parse: parsePositionParams,
  async run(params, services, invocation) {
    const { target, filePath } = resolveFileTarget(invocation.root, params.filePath, params.text);
    const hover = await services.engine.hover(target, params.position, { signal: invocation.signal });
    const result: HoverGetResult = {
      kind: 'hover',
      filePath,
      position: params.position,
      found: hover !== null && hover.contents.trim() !== '',
      contents: hover?.contents ?? '',
    };
    if (hover?.range) result.range = hover.range;
    if (hover) result.serverId = hover.serverId;
    return result;
  },
};
