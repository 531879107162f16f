/**
 * `lsp_completion`: what the language server would suggest at a cursor: names, signatures and
 * short docs, filtered by the prefix already typed and in the server's own order. Reference
 * only: nothing is inserted.
 */
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools';
import type { CompletionGetResult, WireCompletionItem } from '../actions/action-results.ts';
import { callCard } from './cards.ts';
import { completionKindName, formatAt } from './locations.ts';
import { runToolAction, sessionRoot, type LspToolDeps } from './run-tool-action.ts';
import { CAP_FIELDS, fromStructured, listOf, openObject, ROOT_FIELD, structured, WIRE_POSITION } from './structured.ts';
import { oneLine, renderBoundedList } from './text-budget.ts';
import { cursorSuffix, FILE_PATH_PARAM, POSITION_PARAMS, toWirePath, toWirePosition } from './tool-args.ts';

/** Tool name. */
export const LSP_COMPLETION = 'lsp_completion';

/** Verbatim description sent to the model. */
export const LSP_COMPLETION_DESCRIPTION =
  'List what the language server would complete at a cursor (one-based line and character, placed right after the typed prefix): members, names, signatures and short docs, best first. Reference only: nothing is inserted; use it to check which names and members exist before writing code.';

/** Longest detail (its first line) and documentation (its first paragraph) kept per item. */
const MAX_DETAIL_CHARS = 160;
const MAX_DOC_CHARS = 160;

/** The tool's structured result. */
export type CompletionToolValue = CompletionGetResult & { workspaceRoot: string };

/**
 * @param deps runner and config
 * @returns the tool definition
 */
export function lspCompletionTool(deps: LspToolDeps): ToolDefinition {
  const { config } = deps;
  return defineTool({
    name: LSP_COMPLETION,
    description: LSP_COMPLETION_DESCRIPTION,
    parameters: { file_path: FILE_PATH_PARAM, ...POSITION_PARAMS },
    output: {
      schema: {
        type: 'object',
        additionalProperties: true,
        description: 'The completion.get result (zero-based UTF-16 positions).',
        properties: {
          kind: { type: 'string', const: 'completion', required: true },
          filePath: { type: 'string', required: true },
          position: { ...WIRE_POSITION, required: true },
          prefix: { type: 'string', required: true, description: 'The typed prefix the items were filtered by.' },
          items: { ...listOf(openObject('label, kind, detail, documentation, insertText, sortText, textEdit, serverId'), 'Items, best first.'), required: true },
          ...CAP_FIELDS,
          ...ROOT_FIELD,
        },
      },
      render: (_args, value) => [{ type: 'text', text: renderCompletion(fromStructured<CompletionToolValue>(value), config.maxResultChars) }],
    },
    timeoutMs: config.timeoutMs,
    isConcurrencySafe: () => true,
    async execute(args, exec) {
      const root = sessionRoot(exec);
      const params = { filePath: toWirePath(root, args.file_path), position: toWirePosition(args.line, args.character), maxItems: config.maxItems };
      const result = await runToolAction(deps, exec, { action: 'completion.get', params }, root);
      return structured({ ...result, workspaceRoot: root }) as never;
    },
    presentCall: (args) => callCard(`Completions ${args.file_path}${cursorSuffix(args)}`, 'read', [{ path: args.file_path, line: args.line }]),
  });
}

/**
 * @param item one completion
 * @returns `label — kind — detail` (its first line) plus the first paragraph of its documentation
 */
export function formatCompletionItem(item: WireCompletionItem): string {
  const parts = [item.label];
  const kind = completionKindName(item.kind);
  if (kind) parts.push(kind);
  const detail = item.detail?.trim().split(/\r?\n/)[0];
  if (detail && detail !== item.label) parts.push(oneLine(detail, MAX_DETAIL_CHARS));
  let line = parts.join(' — ');
  const doc = item.documentation?.trim().split(/\r?\n\s*\r?\n/)[0];
  if (doc) line += ` · ${oneLine(doc, MAX_DOC_CHARS)}`;
  return line;
}

/**
 * @param value the structured result
 * @param maxChars `maxResultChars`
 * @returns the model-facing text
 */
export function renderCompletion(value: CompletionToolValue, maxChars: number): string {
  const at = formatAt(value.workspaceRoot, value.filePath, value.position);
  const prefix = value.prefix ? ` for "${value.prefix}"` : '';
  const count = value.truncated ? `${value.items.length} of ${value.total}` : `${value.total}`;
  const more = value.isIncomplete ? ' (the server has more; type more of the name to narrow)' : '';
  const head =
    value.total === 0
      ? [`No completions at ${at}${prefix}.${more} Reference only; nothing was inserted.`]
      : [`Completions at ${at}${prefix}: ${count}, best first${more}. Reference only; nothing was inserted.`];
  const items = value.items.map(formatCompletionItem);
  return renderBoundedList({ head, items, alreadyOmitted: value.total - value.items.length, noun: 'completions' }, maxChars).text;
}
