/**
 * Why a backend could not be started (or kept exiting), told once: the backend's own first error
 * line (a wrong Node, a missing server, a wrapper that is not the backend), and the one thing
 * that fixes it. Pure: the extension turns the advice into a notification with a button.
 */

/** What the user can do about a failed start. */
export type FixAction = 'openSettings' | 'showOutput';

/** A failed start, explained. */
export interface StartFailure {
  /** The backend's own words (its first error line), or what we saw (exit code, no answer). */
  reason: string;
  /** What fixes it. */
  advice: string;
  /** The button the notification offers. */
  action: FixAction;
}

const ERROR_LINE = /\berror\b|\bError:|\bERR_|cannot|can't|not found|ENOENT|EACCES|unsupported|needs Node/i;

/**
 * @param lines the backend's stderr lines (oldest first)
 * @returns the first line that reads as an error, else the first non-blank line
 */
export function firstErrorLine(lines: readonly string[]): string | undefined {
  const meaningful = lines.map((l) => l.trim()).filter((l) => l !== '');
  return meaningful.find((l) => ERROR_LINE.test(l)) ?? meaningful[0];
}

/**
 * @param reason the first error line, or the supervisor's own description
 * @param notTheBackend the process answered but not as an `lsp-actions/v1` backend (or not at all)
 * @returns the explanation shown to the user
 */
export function explainStartFailure(reason: string, notTheBackend: boolean): StartFailure {
  if (/needs Node|Node\.?js? (version|v?\d)|registerHooks|withResolvers is not a function|Unexpected token/i.test(reason)) {
    return {
      reason,
      advice:
        'The backend needs Node 22.19 or newer. Put such a Node first on the PATH VS Code is started with, or set "dshLspActions.serverPath" (User settings) to a wrapper that runs the backend with it.',
      action: 'openSettings',
    };
  }
  if (notTheBackend) {
    return {
      reason,
      advice: 'This executable is not the dsh-lsp-actions backend. Set "dshLspActions.serverPath" (User settings) to the dsh-lsp-actions executable.',
      action: 'openSettings',
    };
  }
  if (/ENOENT|EACCES|not found|No such file|Cannot find (module|package)|not installed/i.test(reason)) {
    return {
      reason,
      advice: 'Something the backend needs is missing. Install dsh-lsp-actions (npm install dsh-lsp-actions) and the language server it names, or fix "dshLspActions.serverPath".',
      action: 'openSettings',
    };
  }
  return { reason, advice: 'See the "dsh-lsp-actions" output for the backend\'s log, fix the cause, then run "dsh-lsp-actions: Restart Backend".', action: 'showOutput' };
}
