/**
 * `organizeImports` (additive, writes): the `source.organizeImports` code action of the file's
 * servers, applied through the write path, then — on the new text — the separate
 * `source.removeUnusedImports` action where a server offers one (typescript-language-server's
 * `source.organizeImports` only sorts and merges; removing unused imports is its own kind there).
 * A server that offers an action as a command runs the command, with the edits it sends back
 * going through the same write path.
 *
 * When no action has anything to change, the result is `unchanged` — unless the file's servers
 * say they cannot organize imports at all: `LSP_ACTION_UNSUPPORTED` when every server lists its
 * `codeActionProvider.codeActionKinds` (`LspEngineApi.codeActionKinds`) and none lists either
 * kind (or a sub-kind, or a parent such as `source`), or when no server offers code actions at
 * all (the engine refuses before sending). A server that lists no kinds may or may not organize
 * imports, so its silence is reported as nothing to change, never as unsupported. A failure
 * after something was written is reported as `failureReason` next to what was written.
 */
import { ActionError, isActionError } from '../errors.ts';
import type { CodeActionItem, DocumentTarget, LspEngineApi, Range } from '../lsp/engine-types.ts';
import type { ActionDefinition, ActionInvocation, ActionServices } from './action-definition.ts';
import { ActionParams } from './action-params.ts';
import type { OrganizeImportsParams, OrganizeImportsResult } from './action-results.ts';
import { type AppliedEdit, applyWorkspaceEdit, tieFor } from './apply-workspace-edit.ts';
import { mergeWrites, runCodeActionCommand } from './code-action-flow.ts';
import { filterByKind, resolveIfNeeded } from './code-action-select.ts';
import { type FileTarget, resolveFileTarget, wirePath } from './file-target.ts';
import { keepLineEndings } from './keep-line-endings.ts';
import { countChangedLines } from './line-diff.ts';

/** The code action kind this action asks for first. */
export const ORGANIZE_IMPORTS_KIND = 'source.organizeImports';

/** The kind asked for second, on the organized text: removing unused imports as a separate action. */
export const REMOVE_UNUSED_IMPORTS_KIND = 'source.removeUnusedImports';

/** The kinds this action applies, in order. */
export const ORGANIZE_IMPORTS_KINDS = [ORGANIZE_IMPORTS_KIND, REMOVE_UNUSED_IMPORTS_KIND] as const;

/**
 * @param kind a kind a server advertises
 * @param wanted a kind this action asks for
 * @returns whether asking for `wanted` can yield actions of `kind` (equal, a sub-kind, or a parent kind such as `source`)
 */
export function kindCovers(kind: string, wanted: string): boolean {
  return kind === wanted || kind.startsWith(`${wanted}.`) || wanted.startsWith(`${kind}.`);
}

/**
 * Whether the file's servers can organize imports, as far as their advertised kinds tell.
 * @param engine the engine
 * @param target the file
 * @param signal the run's signal
 * @returns true when a server lists an organize-imports kind, false when every server lists its
 *   kinds and none does, undefined when a server lists none
 */
export async function organizeImportsSupport(
  engine: LspEngineApi,
  target: DocumentTarget,
  signal: AbortSignal,
): Promise<boolean | undefined> {
  const servers = await engine.codeActionKinds(target, { signal });
  if (servers.some((server) => server.kinds?.some((kind) => ORGANIZE_IMPORTS_KINDS.some((wanted) => kindCovers(kind, wanted))))) return true;
  return servers.every((server) => server.kinds !== undefined) ? false : undefined;
}

/**
 * @param text a document
 * @returns the range covering all of it (the start of the file when unknown)
 */
export function wholeDocumentRange(text: string | undefined): Range {
  if (text === undefined) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const lines = text.split('\n');
  return { start: { line: 0, character: 0 }, end: { line: lines.length - 1, character: (lines.at(-1) ?? '').length } };
}

/**
 * @param raw wire params
 * @returns validated `organizeImports` params
 */
export function parseOrganizeImportsParams(raw: unknown): OrganizeImportsParams {
  const p = new ActionParams(raw);
  const params: OrganizeImportsParams = { workspaceRoot: p.workspaceRoot(), filePath: p.filePath(), ...p.escalation() };
  p.refuseText();
  return params;
}

/** What one kind's step did. */
interface StepOutcome {
  item?: CodeActionItem;
  writes: AppliedEdit[];
  failure?: ActionError;
}

/**
 * Asks for one kind on the file's current text and applies the (preferred) action offered.
 * @param services action services
 * @param invocation the run
 * @param file the file
 * @param kind the code action kind
 * @returns the action applied (none when nothing was offered), its writes, and a failure after a write
 */
async function applyKind(
  services: ActionServices,
  invocation: ActionInvocation,
  file: FileTarget,
  kind: string,
  expectedSha256: string | undefined,
): Promise<StepOutcome> {
  const { engine } = services;
  const { signal } = invocation;
  const range = wholeDocumentRange(engine.documentText(file.path)?.text);
  const offered = await engine.codeActions(file.target, range, { signal, only: [kind] });
  const candidates = filterByKind(offered, [kind]).filter((item) => item.disabled === undefined);
  const first = candidates.find((item) => item.isPreferred === true) ?? candidates[0];
  if (!first) return { writes: [] };
  const item = await resolveIfNeeded(engine, file.target, first, signal);
  const writes: AppliedEdit[] = [];
  const textOf = (path: string): string | undefined => (path === item.basis?.path ? item.basis.text : engine.documentText(path)?.text);
  if (item.edit) writes.push(await applyWorkspaceEdit(services, invocation, keepLineEndings(item.edit, textOf), tieFor(item.basis, file.path, expectedSha256)));
  if (!item.command) return { item, writes };
  const outcome = await runCodeActionCommand(services, invocation, { file, range, item, index: 0 }, writes, expectedSha256, keepLineEndings);
  return { item, writes: outcome.writes, ...(outcome.failure ? { failure: outcome.failure } : {}) };
}

/** `organizeImports`: `{ filePath, workspaceRoot, sandbox_permissions?, justification? }`. */
export const organizeImportsAction: ActionDefinition<OrganizeImportsParams, OrganizeImportsResult> = {
  id: 'organizeImports',
  writes: true,
  description: 'Organize the imports of a file (source.organizeImports, then source.removeUnusedImports where offered) and apply the result.',
  parse: parseOrganizeImportsParams,
  async run(params, services, invocation) {
    const { root, signal } = invocation;
    const file = resolveFileTarget(root, params.filePath);
    const support = await organizeImportsSupport(services.engine, file.target, signal);
    if (support === false) {
      throw new ActionError(
        'LSP_ACTION_UNSUPPORTED',
        `no language server for ${file.filePath} can organize imports (none lists ${ORGANIZE_IMPORTS_KINDS.join(' or ')} among its code action kinds)`,
      );
    }
    const applied: CodeActionItem[] = [];
    const writes: AppliedEdit[] = [];
    let failure: ActionError | undefined;
    for (const kind of ORGANIZE_IMPORTS_KINDS) {
      let step: StepOutcome;
      try {
        // The pin holds for the first step only: the second runs on the text the first wrote.
        step = await applyKind(services, invocation, file, kind, writes.length === 0 ? params.expectedSha256 : undefined);
      } catch (error) {
        // Nothing written yet: the failure is the result. After a write, it is reported next to it.
        if (writes.length === 0 || !isActionError(error)) throw error;
        failure = error;
        break;
      }
      if (step.item && step.writes.some((write) => write.filesChanged > 0)) applied.push(step.item);
      writes.push(...step.writes);
      failure = step.failure;
      if (failure) break;
    }
    const merged = mergeWrites(writes);
    if (failure && merged.filesChanged === 0) throw failure;
    if (merged.filesChanged === 0) {
      const reason = support === true ? 'the imports are already organized' : 'the language server offered no change to the imports';
      return { kind: 'unchanged', filePath: file.filePath, reason };
    }
    const own = merged.diffs.find((diff) => diff.filePath === wirePath(root, file.path));
    const result: OrganizeImportsResult = {
      kind: 'importsOrganized',
      filePath: file.filePath,
      title: applied.map((item) => item.title).join(', '),
      serverId: applied[0]?.serverId ?? '',
      linesChanged: own ? countChangedLines(own.before, own.after) : 0,
      filesChanged: merged.filesChanged,
      appliedEdits: merged.appliedEdits,
      diffs: merged.diffs,
    };
    if (failure) result.failureReason = failure.message;
    return result;
  },
};
