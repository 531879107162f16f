/**
 * Finding and choosing code actions, shared by `quickfix.apply`, `codeActions.list`,
 * `codeAction.apply` and `organizeImports`.
 *
 * Kind filter (decision, after the LSP spec's hierarchical kinds and VS Code's client-side
 * filter): an action matches `only` when its kind equals an entry or extends it with a dot
 * (`quickfix` matches `quickfix.addImport`, not `quickfixes`). With a non-empty `only`, an action
 * without a kind (and every bare `Command`) is dropped: nothing says it is of the requested kind.
 */
import { abortError, ActionError } from '../errors.ts';
import type { CodeActionItem, DocumentTarget, Freshness, LspEngineApi, Range } from '../lsp/engine-types.ts';

/** How a caller picks one action: exact `title` wins over `index` (default 0). */
export interface CodeActionChoice {
  title?: string;
  index?: number;
}

/**
 * @param kind the action's kind
 * @param only requested kinds; empty or undefined means any
 * @returns whether the kind is one of `only` or a sub-kind of one
 */
export function kindMatches(kind: string | undefined, only: readonly string[] | undefined): boolean {
  if (only === undefined || only.length === 0) return true;
  if (kind === undefined || kind === '') return false;
  return only.some((want) => kind === want || kind.startsWith(`${want}.`));
}

/**
 * @param items code actions as the engine returned them
 * @param only requested kinds
 * @returns the matching ones, order kept
 */
export function filterByKind(items: readonly CodeActionItem[], only: readonly string[] | undefined): CodeActionItem[] {
  return items.filter((item) => kindMatches(item.kind, only));
}

/**
 * @param items candidate actions (already filtered)
 * @param choice title or index
 * @param what noun for messages, e.g. `quick fix`
 * @returns the chosen action and its index
 * @throws ActionError `LSP_ACTION_UNKNOWN` when nothing matches
 */
export function selectCodeAction(
  items: readonly CodeActionItem[],
  choice: CodeActionChoice,
  what: string,
): { item: CodeActionItem; index: number } {
  if (choice.title !== undefined && choice.title !== '') {
    const index = items.findIndex((item) => item.title === choice.title);
    const item = items[index];
    if (item) return { item, index };
    throw new ActionError(
      'LSP_ACTION_UNKNOWN',
      items.length === 0
        ? `no ${what} matched title "${choice.title}": the server offered none here`
        : `no ${what} matched title "${choice.title}"; offered: ${describeTitles(items)}`,
    );
  }
  const index = choice.index ?? 0;
  const item = items[index];
  if (item) return { item, index };
  throw new ActionError(
    'LSP_ACTION_UNKNOWN',
    items.length === 0
      ? `no ${what} is available here (index ${index} requested, the server offered none)`
      : `no ${what} at index ${index}: ${items.length} offered (${describeTitles(items)})`,
  );
}

/**
 * The first error diagnostic of the file, from fresh engine diagnostics.
 * @param engine the engine
 * @param target the file
 * @param signal the run's signal
 * @returns its range (undefined when there is none) and the diagnostics' freshness
 */
export async function findFirstError(
  engine: LspEngineApi,
  target: DocumentTarget,
  signal: AbortSignal,
): Promise<{ range: Range | undefined; state: Freshness }> {
  const result = await engine.diagnostics(target, { signal });
  return { range: result.diagnostics.find((d) => d.severity === 'error')?.range, state: result.state };
}

/**
 * @param engine the engine
 * @param target the file
 * @param signal the run's signal
 * @returns the range of the file's first error
 * @throws ActionError `LSP_ACTION_UNKNOWN` when the file has no error (the message says whether diagnostics were fresh)
 */
export async function firstErrorRange(engine: LspEngineApi, target: DocumentTarget, signal: AbortSignal): Promise<Range> {
  const { range, state } = await findFirstError(engine, target, signal);
  if (range) return range;
  const note =
    state === 'fresh'
      ? 'the file has no error diagnostics'
      : `the file has no error diagnostics yet (diagnostics are ${state}: the server has not finished analysing it)`;
  throw new ActionError('LSP_ACTION_UNKNOWN', `no code action to select: ${note}; pass a range to ask about a specific place`);
}

/**
 * Resolves an action that needs it (`codeAction/resolve`), so its edit is known.
 * @param engine the engine
 * @param target the file
 * @param item the action
 * @param signal the run's signal
 * @returns the resolved (or unchanged) action
 */
export async function resolveIfNeeded(
  engine: LspEngineApi,
  target: DocumentTarget,
  item: CodeActionItem,
  signal: AbortSignal,
): Promise<CodeActionItem> {
  if (!item.needsResolve) return item;
  if (signal.aborted) throw abortError(signal);
  return engine.resolveCodeAction(target, item, { signal });
}

/**
 * @param item the action
 * @returns a one-line reason it cannot be applied, or undefined
 */
export function disabledReason(item: CodeActionItem): string | undefined {
  return item.disabled === undefined ? undefined : `"${item.title}" is disabled by the server: ${item.disabled}`;
}

function describeTitles(items: readonly CodeActionItem[]): string {
  const shown = items.slice(0, 10).map((item, i) => `[${i}] "${item.title}"`);
  return items.length > 10 ? `${shown.join(', ')}, … ${items.length - 10} more` : shown.join(', ');
}
