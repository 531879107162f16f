/**
 * Saying why there is no quick fix, when the server is known to lack some: TypeScript 7's own
 * language server (`tsc --lsp`, which calls itself `typescript-go` in `initialize`) does not
 * have every quick fix tsserver has. Measured on 7.0.2 (tests/lsp/probes/ts7-quick-fixes.ts): it
 * offers "Add import" (TS2304) and "Implement interface" (TS2420), and nothing for a misspelt
 * name (TS2552), an unused declaration (TS6133), a missing property (TS2339), missing
 * properties (TS2739/TS2741), a missing `await` or unreachable code (TS7027), all of which
 * tsserver 5.9 fixes.
 *
 * An empty answer from such a server is therefore not "nothing can be done here" but "this
 * server cannot": the code-action answers (`codeActions.list`, `quickfix.apply`,
 * `codeAction.apply`, and the tools over them) carry a note naming the diagnostics it left
 * without a fix. Nothing is asked of another compiler (docs/decisions/0107-ts7-missing-quick-fixes.md).
 */
import type { CodeActionItem, CodeActionServer, DocumentTarget, EngineDiagnostic, LspEngineApi, Position, Range } from '../lsp/engine-types.ts';
import { kindMatches } from './code-action-select.ts';

/** `serverInfo.name` of TypeScript 7's `tsc --lsp` (and of the `tsgo` preview). */
export const TYPESCRIPT_NATIVE_SERVER_NAME = 'typescript-go';

const QUICKFIX = 'quickfix';

/**
 * @param only the kinds asked for (empty or undefined: any)
 * @returns whether quick fixes were among them
 */
export function asksQuickFixes(only: readonly string[] | undefined): boolean {
  return kindMatches(QUICKFIX, only) || (only ?? []).some((kind) => kind.startsWith(`${QUICKFIX}.`));
}

const before = (a: Position, b: Position): boolean => a.line < b.line || (a.line === b.line && a.character < b.character);
const touches = (a: Range, b: Range): boolean => !before(a.end, b.start) && !before(b.end, a.start);
const samePlace = (a: Position, b: Position): boolean => a.line === b.line && a.character === b.character;

/**
 * @param diagnostic a diagnostic of the server
 * @param fixes the server's offered quick fixes
 * @returns whether one of them is for it (an action that names no diagnostic may be for any)
 */
function covered(diagnostic: EngineDiagnostic, fixes: readonly CodeActionItem[]): boolean {
  return fixes.some(
    (fix) =>
      fix.diagnostics === undefined ||
      fix.diagnostics.length === 0 ||
      fix.diagnostics.some((d) => String(d.code) === String(diagnostic.code) && samePlace(d.range.start, diagnostic.range.start)),
  );
}

/**
 * @param server a server routed to the file
 * @returns how the note names it
 */
function serverName(server: CodeActionServer): string {
  const version = server.serverInfo?.version;
  return `TypeScript 7's language server (tsc --lsp${version ? ` ${version}` : ''})`;
}

/**
 * @param server the server
 * @param codes the diagnostic codes it left without a fix, as `TS2552`
 * @returns the note
 */
export function quickFixGapText(server: CodeActionServer, codes: readonly string[]): string {
  return (
    `${serverName(server)} offers no quick fix for ${codes.join(', ')} here; it does not have every quick fix ` +
    "of tsserver-based TypeScript (5.x and earlier) yet. No other compiler's fixes are used: edit the code yourself."
  );
}

/**
 * @param engine the engine
 * @param target the file
 * @param range the range asked about
 * @param offered what the servers offered there (before or after the kind filter)
 * @param only the kinds asked for
 * @param signal the run's signal
 * @returns the note, when a TypeScript 7 server has a fresh diagnostic in `range` and no quick
 *   fix for it; `undefined` otherwise (other servers, fixes offered, diagnostics not fresh)
 */
export async function quickFixGapNote(
  engine: Pick<LspEngineApi, 'codeActionKinds' | 'diagnostics'>,
  target: DocumentTarget,
  range: Range,
  offered: readonly CodeActionItem[],
  only: readonly string[] | undefined,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (!asksQuickFixes(only)) return undefined;
  const natives = (await engine.codeActionKinds(target, { signal })).filter((s) => s.serverInfo?.name === TYPESCRIPT_NATIVE_SERVER_NAME);
  if (natives.length === 0) return undefined;
  const result = await engine.diagnostics(target, { signal });
  // Which diagnostics are there is only known from a fresh answer: otherwise say nothing.
  if (result.state !== 'fresh') return undefined;
  const notes: string[] = [];
  for (const server of natives) {
    const fixes = offered.filter((item) => item.serverId === server.serverId && item.disabled === undefined && (item.kind === undefined || kindMatches(item.kind, [QUICKFIX])));
    const missing = result.diagnostics.filter((d) => d.serverId === server.serverId && touches(d.range, range) && !covered(d, fixes));
    const codes = [...new Set(missing.map((d) => (d.code === undefined ? 'this diagnostic' : `TS${String(d.code)}`)))];
    if (codes.length > 0) notes.push(quickFixGapText(server, codes));
  }
  return notes.length > 0 ? notes.join(' ') : undefined;
}
