/**
 * `(Command | CodeAction)[]` → {@link CodeActionItem}s. A bare Command becomes an item with
 * only `command`; a CodeAction carrying both `edit` and `command` keeps both (edit first,
 * then the command, as LSP orders them).
 */
import type { CodeActionItem, LspCommand } from './engine-types.ts';
import { isObject, malformed, optString, readArray, type NormalizeContext } from './normalize-common.ts';
import { normalizeDiagnostic } from './normalize-diagnostics.ts';
import { normalizeWorkspaceEdit } from './normalize-workspace-edit.ts';

/**
 * @param ctx normaliser context
 * @param raw an LSP Command
 * @param what where it was
 * @returns the command as sent (title, command, arguments)
 */
export function normalizeCommand(ctx: NormalizeContext, raw: unknown, what: string): LspCommand {
  if (!isObject(raw) || typeof raw.command !== 'string') throw malformed(ctx, `${what} is not a Command`);
  const out: LspCommand = { title: optString(raw.title) ?? raw.command, command: raw.command };
  if (Array.isArray(raw.arguments)) out.arguments = raw.arguments;
  return out;
}

/**
 * @param ctx normaliser context
 * @param raw one CodeAction or Command
 * @param path the document the actions were asked for (their diagnostics are in it)
 * @param resolveSupported whether the server advertises `codeAction/resolve`
 * @param what where it was
 * @returns the normalised item
 */
export function normalizeCodeAction(
  ctx: NormalizeContext,
  raw: unknown,
  path: string,
  resolveSupported: boolean,
  what = 'codeAction',
): CodeActionItem {
  if (!isObject(raw)) throw malformed(ctx, `${what} is not a CodeAction or Command`);
  if (typeof raw.command === 'string') {
    const command = normalizeCommand(ctx, raw, what);
    return { serverId: ctx.serverId, title: command.title, command, needsResolve: false, raw };
  }
  if (typeof raw.title !== 'string') throw malformed(ctx, `${what}.title is not a string`);
  const item: CodeActionItem = { serverId: ctx.serverId, title: raw.title, needsResolve: false, raw };
  const kind = optString(raw.kind);
  if (kind !== undefined) item.kind = kind;
  if (typeof raw.isPreferred === 'boolean') item.isPreferred = raw.isPreferred;
  if (isObject(raw.disabled)) item.disabled = optString(raw.disabled.reason) ?? 'disabled';
  if (Array.isArray(raw.diagnostics)) {
    item.diagnostics = raw.diagnostics.map((d, i) => normalizeDiagnostic(ctx, d, path, `${what}.diagnostics[${i}]`));
  }
  if (raw.edit !== undefined && raw.edit !== null) item.edit = normalizeWorkspaceEdit(ctx, raw.edit, `${what}.edit`);
  if (raw.command !== undefined && raw.command !== null) item.command = normalizeCommand(ctx, raw.command, `${what}.command`);
  item.needsResolve = resolveSupported && item.edit === undefined;
  return item;
}

/**
 * @param ctx normaliser context
 * @param raw the `textDocument/codeAction` answer
 * @param path the document
 * @param resolveSupported whether the server advertises `codeAction/resolve`
 * @returns normalised items in the server's order
 */
export function normalizeCodeActions(ctx: NormalizeContext, raw: unknown, path: string, resolveSupported: boolean): CodeActionItem[] {
  return readArray(ctx, raw, 'codeAction result').map((item, i) => normalizeCodeAction(ctx, item, path, resolveSupported, `codeAction[${i}]`));
}
