/**
 * `lsp_symbols`: a file's outline (classes, functions, members, nested), or a search for symbol
 * names across the workspace.
 */
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools';
import type { SymbolsGetResult, WireSymbol } from '../actions/action-results.ts';
import { ActionError } from '../errors.ts';
import { asJson, callCard, searchMeta, searchResultView } from './cards.ts';
import { displayPath, formatAt, oneBasedPosition, symbolKindName } from './locations.ts';
import { runToolAction, sessionRoot, type LspToolDeps } from './run-tool-action.ts';
import { CAP_FIELDS, fromStructured, listOf, openObject, ROOT_FIELD, structured } from './structured.ts';
import { oneLine, renderBoundedList } from './text-budget.ts';
import { toWirePath } from './tool-args.ts';
import type { WorkspaceFileLister } from './workspace-files.ts';

/** Tool name. */
export const LSP_SYMBOLS = 'lsp_symbols';

/** Verbatim description sent to the model. */
export const LSP_SYMBOLS_DESCRIPTION =
  "Symbols from the language server. Give file_path for that file's outline (classes, functions, members, with one-based line:col), or query to find symbols by name across the workspace (file_path then only picks which language server to ask).";

/** The tool's structured result. */
export type SymbolsToolValue = SymbolsGetResult & { workspaceRoot: string };

/**
 * @param deps runner, config, and the workspace lister (a query alone is asked through the first
 *   source file, since servers such as typescript-language-server only index once a file is open)
 * @returns the tool definition
 */
export function lspSymbolsTool(deps: LspToolDeps & { listWorkspaceFiles?: WorkspaceFileLister }): ToolDefinition {
  const { config } = deps;
  return defineTool({
    name: LSP_SYMBOLS,
    description: LSP_SYMBOLS_DESCRIPTION,
    parameters: {
      file_path: { type: 'string', description: 'The file to outline, relative to the workspace or absolute.' },
      query: { type: 'string', description: 'Part of a symbol name to search for across the workspace.' },
    },
    output: {
      schema: {
        type: 'object',
        additionalProperties: true,
        description: 'The symbols.get result (zero-based UTF-16 ranges; outline symbols nest in children).',
        properties: {
          kind: { type: 'string', const: 'symbols', required: true },
          scope: { type: 'string', enum: ['document', 'workspace'], required: true },
          symbols: { ...listOf(openObject('name, kind (LSP SymbolKind), detail, containerName, filePath, range, selectionRange, children'), 'Symbols.'), required: true },
          ...CAP_FIELDS,
          ...ROOT_FIELD,
        },
      },
      render: (_args, value) => [{ type: 'text', text: renderSymbols(fromStructured<SymbolsToolValue>(value), config.maxResultChars) }],
      presentationMeta: (_args, value) => asJson(symbolsSearchMeta(fromStructured<SymbolsToolValue>(value))),
    },
    timeoutMs: config.timeoutMs,
    isConcurrencySafe: () => true,
    async execute(args, exec) {
      const root = sessionRoot(exec);
      const query = args.query?.trim();
      if (args.file_path === undefined && (query === undefined || query === '')) {
        throw new ActionError('LSP_ACTION_INVALID_ARGS', 'give file_path for an outline, or query to search the workspace');
      }
      const anchor =
        args.file_path === undefined && deps.listWorkspaceFiles
          ? (await deps.listWorkspaceFiles(root, 1, exec.signal)).files[0]
          : undefined;
      const filePath = args.file_path !== undefined ? toWirePath(root, args.file_path) : anchor;
      const params = {
        ...(filePath !== undefined ? { filePath } : {}),
        ...(query ? { query } : {}),
        maxItems: config.maxItems,
      };
      const result = await runToolAction(deps, exec, { action: 'symbols.get', params }, root);
      return structured({ ...result, workspaceRoot: root }) as never;
    },
    presentCall: (args) =>
      callCard(args.query ? `Symbols matching "${args.query}"` : `Outline ${args.file_path ?? ''}`, 'search', args.file_path ? [{ path: args.file_path }] : []),
    presentResult: (args, result) => searchResultView(args.query ? `Symbols matching "${args.query}"` : `Outline ${args.file_path ?? ''}`, result),
  });
}

/** Outline symbols depth-first in file order, with their depth. */
function flatten(symbols: readonly WireSymbol[], depth = 0, out: Array<[WireSymbol, number]> = []): Array<[WireSymbol, number]> {
  const ordered = [...symbols].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  for (const s of ordered) {
    out.push([s, depth]);
    if (s.children) flatten(s.children, depth + 1, out);
  }
  return out;
}

/**
 * @param root workspace root
 * @param s a symbol
 * @param scope outline (indented, `line:col`) or workspace (`path:line:col`)
 * @param depth nesting depth in an outline
 * @returns one line
 */
export function formatSymbol(root: string, s: WireSymbol, scope: 'document' | 'workspace', depth = 0): string {
  const detail = s.detail ? ` — ${oneLine(s.detail, 160)}` : '';
  if (scope === 'document') return `${'  '.repeat(depth)}${symbolKindName(s.kind)} ${s.name}${detail} ${oneBasedPosition(s.selectionRange.start)}`;
  const container = s.containerName ? ` in ${s.containerName}` : '';
  return `${symbolKindName(s.kind)} ${s.name}${container}${detail} — ${formatAt(root, s.filePath, s.selectionRange.start)}`;
}

/**
 * @param value the structured result
 * @param maxChars `maxResultChars`
 * @returns the model-facing text
 */
export function renderSymbols(value: SymbolsToolValue, maxChars: number): string {
  const root = value.workspaceRoot;
  const flat = value.scope === 'document' ? flatten(value.symbols) : value.symbols.map((s): [WireSymbol, number] => [s, 0]);
  const count = value.truncated ? `${flat.length} of ${value.total}` : `${value.total}`;
  const head =
    value.scope === 'document'
      ? [`Outline of ${displayPath(root, value.filePath ?? '')} (${count} symbols; line:col one-based):`]
      : [`Symbols matching "${value.query ?? ''}": ${count}${value.total === 0 ? '' : ' (path:line:col one-based)'}.`];
  const items = flat.map(([s, depth]) => formatSymbol(root, s, value.scope, depth));
  return renderBoundedList({ head, items, alreadyOmitted: Math.max(0, value.total - flat.length), noun: 'symbols' }, maxChars).text;
}

/**
 * @param value the structured result
 * @returns search-card meta: every listed symbol by file and line
 */
export function symbolsSearchMeta(value: SymbolsToolValue): ReturnType<typeof searchMeta> {
  const root = value.workspaceRoot;
  const flat = value.scope === 'document' ? flatten(value.symbols) : value.symbols.map((s): [WireSymbol, number] => [s, 0]);
  return searchMeta(
    flat.map(([s]) => [displayPath(root, s.filePath), s.selectionRange.start.line + 1, `${symbolKindName(s.kind)} ${s.name}`] as const),
    value.truncated,
    value.total,
  );
}
