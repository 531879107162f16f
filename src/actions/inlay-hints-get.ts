/**
 * `inlayHints.get` (additive, read-only): inlay hints (inferred types, parameter names) for a
 * zero-based range, or the whole document when none is given; capped.
 */
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { InlayHintsGetParams, InlayHintsGetResult } from './action-results.ts';
import { resolveFileTarget } from './file-target.ts';
import { capItems, itemLimit } from './wire-format.ts';

/**
 * @param raw wire params
 * @returns validated `inlayHints.get` params
 */
export function parseInlayHintsGetParams(raw: unknown): InlayHintsGetParams {
  const p = new ActionParams(raw);
  const params: InlayHintsGetParams = { workspaceRoot: p.workspaceRoot(), filePath: p.filePath() };
  const text = p.text();
  const range = p.range();
  const maxItems = p.positiveInt('maxItems');
  if (text !== undefined) params.text = text;
  if (range !== undefined) params.range = range;
  if (maxItems !== undefined) params.maxItems = maxItems;
  return params;
}

/** `inlayHints.get`: `{ filePath, workspaceRoot, range?, text?, maxItems? }`. */
export const inlayHintsGetAction: ActionDefinition<InlayHintsGetParams, InlayHintsGetResult> = {
  id: 'inlayHints.get',
  writes: false,
  description: 'Inlay hints (inferred types, parameter names) for a zero-based range or the whole file (read-only).',
  parse: parseInlayHintsGetParams,
  async run(params, services, invocation) {
    const { target, filePath } = resolveFileTarget(invocation.root, params.filePath, params.text);
    const { serverId, hints } = await services.engine.inlayHints(target, params.range, { signal: invocation.signal });
    const sorted = [...hints].sort((a, b) => a.position.line - b.position.line || a.position.character - b.position.character);
    const capped = capItems(sorted, itemLimit(params.maxItems, services.config));
    const result: InlayHintsGetResult = {
      kind: 'inlayHints',
      filePath,
      serverId,
      hints: capped.items.map((hint) => {
        const out: InlayHintsGetResult['hints'][number] = { position: hint.position, label: hint.label };
        if (hint.kind !== undefined) out.kind = hint.kind;
        if (hint.paddingLeft !== undefined) out.paddingLeft = hint.paddingLeft;
        if (hint.paddingRight !== undefined) out.paddingRight = hint.paddingRight;
        return out;
      }),
      truncated: capped.truncated,
      total: capped.total,
    };
    if (params.range) result.range = params.range;
    return result;
  },
};
