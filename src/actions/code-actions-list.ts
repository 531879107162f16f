/**
 * `codeActions.list` (additive, read-only): the code actions the servers offer for `range` (or
 * the file's first error; without either, the empty range at the start of the file, which still
 * lists source actions), so an editor can show a menu instead of guessing titles. Each entry has
 * its `index` (what `quickfix.apply`/`codeAction.apply` take with the same `range` and `only`),
 * kind, preferred flag, disabled reason, server, command (if any) and an edit preview: the edits
 * per file plus a unified-diff-like hunk list for files whose text the engine holds. Items that
 * need `codeAction/resolve` are resolved for the preview unless `preview: false`. A `note` says
 * why a diagnostic in the range has no quick fix when the server is known to lack some
 * (quick-fix-gaps.ts).
 */
import { abortError } from '../errors.ts';
import type { CodeActionItem, DocumentTarget, LspEngineApi, Range } from '../lsp/engine-types.ts';
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { CodeActionsListParams, CodeActionsListResult, WireCodeAction } from './action-results.ts';
import { filterByKind, findFirstError } from './code-action-select.ts';
import { buildEditPreview } from './edit-preview.ts';
import { quickFixGapNote } from './quick-fix-gaps.ts';
import { resolveFileTarget } from './file-target.ts';
import { capItems, itemLimit } from './wire-format.ts';

const START_OF_FILE: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/**
 * @param raw wire params
 * @returns validated `codeActions.list` params
 */
export function parseCodeActionsListParams(raw: unknown): CodeActionsListParams {
  const p = new ActionParams(raw);
  const params: CodeActionsListParams = { workspaceRoot: p.workspaceRoot(), filePath: p.filePath() };
  const text = p.text();
  const range = p.range();
  const only = p.stringArray('only');
  const maxItems = p.positiveInt('maxItems');
  const preview = p.boolean('preview');
  if (text !== undefined) params.text = text;
  if (range !== undefined) params.range = range;
  if (only !== undefined) params.only = only;
  if (maxItems !== undefined) params.maxItems = maxItems;
  if (preview !== undefined) params.preview = preview;
  return params;
}

/**
 * @param root workspace root
 * @param item a (resolved) code action
 * @param index its index in the filtered list
 * @param engine for the texts the edit was computed against
 * @param withPreview include the edit preview
 * @returns the wire entry
 */
export function toWireCodeAction(
  root: string,
  item: CodeActionItem,
  index: number,
  engine: Pick<LspEngineApi, 'documentText'>,
  withPreview = true,
): WireCodeAction {
  const out: WireCodeAction = {
    index,
    title: item.title,
    isPreferred: item.isPreferred === true,
    serverId: item.serverId,
    diagnostics: (item.diagnostics ?? []).map((d) => d.message),
  };
  if (item.kind !== undefined) out.kind = item.kind;
  if (item.disabled !== undefined) out.disabled = item.disabled;
  if (item.command) out.command = { title: item.command.title, command: item.command.command };
  if (item.edit && withPreview) out.preview = buildEditPreview(root, item.edit, (path) => engine.documentText(path)?.text);
  return out;
}

async function resolveForPreview(engine: LspEngineApi, target: DocumentTarget, item: CodeActionItem, signal: AbortSignal): Promise<CodeActionItem> {
  if (!item.needsResolve) return item;
  try {
    return await engine.resolveCodeAction(target, item, { signal });
  } catch {
    // The entry is still listed, without a preview (unless the whole call was aborted).
    if (signal.aborted) throw abortError(signal);
    return item;
  }
}

/** `codeActions.list`: `{ filePath, workspaceRoot, range?, only?, text?, maxItems?, preview? }`. */
export const codeActionsListAction: ActionDefinition<CodeActionsListParams, CodeActionsListResult> = {
  id: 'codeActions.list',
  writes: false,
  description: 'List the quick fixes and refactors the language servers offer for a range or the first error, each with an edit preview (read-only).',
  parse: parseCodeActionsListParams,
  async run(params, services, invocation) {
    const { engine } = services;
    const { signal, root } = invocation;
    const { target, filePath } = resolveFileTarget(root, params.filePath, params.text);
    const range = params.range ?? (await findFirstError(engine, target, signal)).range ?? START_OF_FILE;
    const only = params.only ?? [];
    const offered = await engine.codeActions(target, range, { signal, ...(only.length > 0 ? { only } : {}) });
    const capped = capItems(filterByKind(offered, only), itemLimit(params.maxItems, services.config));
    const withPreview = params.preview !== false;
    const items = withPreview ? await Promise.all(capped.items.map((item) => resolveForPreview(engine, target, item, signal))) : capped.items;
    const note = await quickFixGapNote(engine, target, range, offered, only, signal);
    return {
      kind: 'codeActions',
      filePath,
      range,
      actions: items.map((item, index) => toWireCodeAction(root, item, index, engine, withPreview)),
      truncated: capped.truncated,
      total: capped.total,
      ...(note !== undefined ? { note } : {}),
    };
  },
};
