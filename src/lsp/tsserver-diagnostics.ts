/**
 * Diagnostics by request and response from a server that forwards requests to tsserver
 * (typescript-language-server's `typescript.tsserverRequest` command): tsserver's
 * `syntacticDiagnosticsSync`, `semanticDiagnosticsSync` and `suggestionDiagnosticsSync`, which
 * tsserver answers in order after the `change` forwarded for our last `didChange` — so the answer
 * is for the version just sent, with no push to wait for.
 *
 * The items are asked without `includeLinePosition`, so tsserver formats them exactly as in the
 * `syntaxDiag`/`semanticDiag`/`suggestionDiag` events the server turns into its pushes, and they
 * are converted exactly as typescript-language-server 5.3.0 converts those events (its
 * `toDiagnostic`): range from one-based line/offset, severity from category, numeric code,
 * `source` (default `typescript`), tags Unnecessary/Deprecated, related information with a span.
 * Codes in the server's `diagnostics.ignoredCodes` setting are dropped, as it does.
 * See docs/decisions/0001-diagnostics-freshness.md ("tsserver request passthrough").
 */
import type { Diagnostic, DiagnosticRelatedInformation } from 'vscode-languageserver-protocol';
import { URI } from 'vscode-uri';
import { ActionError } from '../errors.ts';
import type { CapabilityRegistry } from './capability-registry.ts';
import type { LanguageClient } from './language-client.ts';
import { isObject } from './normalize-common.ts';

/** The command typescript-language-server registers for forwarding a request to tsserver. */
export const TSSERVER_REQUEST_COMMAND = 'typescript.tsserverRequest';

/** tsserver commands asked, in the order the server's pushes list their kinds. */
export const TSSERVER_DIAGNOSTIC_COMMANDS = ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync', 'suggestionDiagnosticsSync'] as const;

/**
 * @param registry a server's capabilities
 * @returns whether it advertises the passthrough command (statically or by registration)
 */
export function offersTsserverRequest(registry: CapabilityRegistry): boolean {
  return registry.commands.includes(TSSERVER_REQUEST_COMMAND);
}

const SEVERITY: Record<string, 1 | 2 | 4> = { error: 1, warning: 2, suggestion: 4 };

/** One-based tsserver `{line, offset}` → zero-based LSP position (offsets are UTF-16 units). */
function position(loc: unknown): { line: number; character: number } {
  if (!isObject(loc) || typeof loc.line !== 'number' || typeof loc.offset !== 'number') {
    throw new Error('tsserver diagnostic location is not {line, offset}');
  }
  return { line: loc.line - 1, character: loc.offset - 1 };
}

/**
 * @param raw one tsserver protocol `Diagnostic` (`start`, `end`, `text`, `category`, …)
 * @returns the LSP Diagnostic typescript-language-server would push for it
 */
export function tsserverToLspDiagnostic(raw: unknown): Diagnostic {
  if (!isObject(raw) || typeof raw.text !== 'string') throw new Error('tsserver diagnostic has no text');
  const out: Diagnostic = {
    range: { start: position(raw.start), end: position(raw.end) },
    message: raw.text,
    severity: SEVERITY[typeof raw.category === 'string' ? raw.category : ''] ?? 1,
    source: typeof raw.source === 'string' && raw.source !== '' ? raw.source : 'typescript',
  };
  if (typeof raw.code === 'number' || typeof raw.code === 'string') out.code = raw.code;
  if (Array.isArray(raw.relatedInformation)) {
    const related: DiagnosticRelatedInformation[] = [];
    for (const info of raw.relatedInformation) {
      if (!isObject(info) || !isObject(info.span) || typeof info.span.file !== 'string') continue;
      related.push({
        location: { uri: URI.file(info.span.file).toString(), range: { start: position(info.span.start), end: position(info.span.end) } },
        message: typeof info.message === 'string' ? info.message : '',
      });
    }
    out.relatedInformation = related;
  }
  const tags: Array<1 | 2> = [];
  if (raw.reportsUnnecessary === true) tags.push(1);
  if (raw.reportsDeprecated === true) tags.push(2);
  out.tags = tags;
  return out;
}

/**
 * @param client the server's configuration (`diagnostics.ignoredCodes` in its settings)
 * @returns codes the server drops from its pushes
 */
function ignoredCodes(client: LanguageClient): Set<unknown> {
  const settings = client.config.configuration as unknown;
  const codes = isObject(settings) && isObject(settings.diagnostics) ? settings.diagnostics.ignoredCodes : undefined;
  return new Set(Array.isArray(codes) ? codes : []);
}

/**
 * The passthrough's `ExecuteInfo` (its third argument, documented by typescript-language-server):
 * `isAsync` lets the server write the request to tsserver without waiting for the answer of the
 * one before. Its queue otherwise holds every request until the previous answer is back, one
 * round trip each; tsserver still reads its input in order, so an answer stays tied to the
 * `change` sent before it.
 */
export const PIPELINED = { isAsync: true } as const;

/** How {@link requestTsserverDiagnostics} asks. */
export interface TsserverDiagnosticsOptions {
  /** Cancels (sent as `$/cancelRequest`). */
  signal?: AbortSignal | undefined;
  /** The file was never sent to the server (a batch): `No Project` is then expected, not a health sign. */
  unopened?: boolean;
  /**
   * Whether to ask `suggestionDiagnosticsSync` too (default true). Every item it returns has the
   * category `suggestion` (an LSP hint), so a caller that reports nothing below `info` skips it
   * and spares tsserver that pass over the file.
   */
  suggestions?: boolean;
}

/**
 * Asks the diagnostics kinds of one file, concurrently (tsserver answers them in order).
 * @param client the server (must offer {@link TSSERVER_REQUEST_COMMAND})
 * @param path absolute path of the file (open on the server, or part of a loaded project)
 * @param options signal, unopened, suggestions
 * @returns the LSP Diagnostics the server would push for the file as it has it now (without the
 *   hints when `suggestions` is false)
 * @throws ActionError from the request (CANCELLED/TIMEOUT on abort, SERVER_FAILED on an error
 *   response), or SERVER_FAILED when tsserver reports `success: false` or a malformed body
 */
export async function requestTsserverDiagnostics(client: LanguageClient, path: string, options: TsserverDiagnosticsOptions = {}): Promise<Diagnostic[]> {
  const { signal, unopened = false, suggestions = true } = options;
  const commands = suggestions ? TSSERVER_DIAGNOSTIC_COMMANDS : TSSERVER_DIAGNOSTIC_COMMANDS.filter((c) => c !== 'suggestionDiagnosticsSync');
  const params = (command: string): unknown => ({ command: TSSERVER_REQUEST_COMMAND, arguments: [command, { file: path }, PIPELINED] });
  const answers = await Promise.all(
    commands.map((command) =>
      unopened
        ? client.requestUnloaded<unknown>('workspace/executeCommand', params(command), signal)
        : client.request<unknown>('workspace/executeCommand', params(command), signal),
    ),
  );
  const ignored = ignoredCodes(client);
  const out: Diagnostic[] = [];
  answers.forEach((answer, i) => {
    const command = commands[i] as string;
    if (!isObject(answer) || answer.success !== true || !Array.isArray(answer.body)) {
      const why = isObject(answer) && typeof answer.message === 'string' ? answer.message : 'no diagnostics in the response';
      throw new ActionError('LSP_ACTION_SERVER_FAILED', `${client.serverId}: tsserver ${command} for ${path} failed: ${why}`);
    }
    for (const item of answer.body) {
      try {
        const diagnostic = tsserverToLspDiagnostic(item);
        if (!ignored.has(diagnostic.code)) out.push(diagnostic);
      } catch (error) {
        throw new ActionError('LSP_ACTION_SERVER_FAILED', `${client.serverId}: tsserver ${command} for ${path}: ${(error as Error).message}`);
      }
    }
  });
  return out;
}
