/**
 * What the status bar item says: the backend's lifecycle (starting / ready / crashed / not
 * found) and the freshness of the active file's diagnostics, so a `pending` or `stale` result is
 * never silently shown as "no problems". Pure.
 */
import type { Freshness } from './wire-types.ts';

/** A backend's lifecycle state. */
export type BackendState = 'starting' | 'ready' | 'crashed' | 'failed' | 'missing' | 'stopped' | 'asking' | 'untrusted';

/** What the status bar reflects. */
export interface StatusInput {
  state: BackendState;
  /** Seconds until the next restart attempt, when crashed. */
  restartInSeconds?: number;
  /** The active file's diagnostics freshness, if any snapshot arrived. */
  freshness?: Freshness;
  /** The active file's path, for the hover. */
  file?: string;
  /** Errors / warnings of the active file. */
  counts?: { errors: number; warnings: number };
  /** The session writes are bound to, if any. */
  sessionId?: string;
  /** Why the backend is missing or crashed. */
  detail?: string;
}

/** The rendered item. */
export interface StatusView {
  text: string;
  tooltip: string;
  /** Whether to draw the item with the warning/error background. */
  alarm: 'none' | 'warning' | 'error';
}

const FRESHNESS_HOVER: Record<Freshness, string> = {
  fresh: 'fresh: the language server answered for the file as it is now',
  pending: 'pending: the language server has not answered for the current text yet — problems may be missing',
  stale: 'stale: the result describes an older version of the file — problems may be out of date',
};

/**
 * @param input the state to show
 * @returns text (with codicons), tooltip and alarm level
 */
export function statusView(input: StatusInput): StatusView {
  const lines: string[] = [];
  let text: string;
  let alarm: StatusView['alarm'] = 'none';
  switch (input.state) {
    case 'starting':
      text = '$(sync~spin) dsh-lsp-actions: starting';
      lines.push('The backend is starting.');
      break;
    case 'crashed':
      text = '$(error) dsh-lsp-actions: crashed';
      alarm = 'error';
      lines.push(
        input.restartInSeconds !== undefined
          ? `The backend stopped unexpectedly; restarting in ${input.restartInSeconds} s.`
          : 'The backend stopped unexpectedly.',
        'Run "dsh-lsp-actions: Restart Backend" to restart it now.',
      );
      break;
    case 'failed':
      text = '$(error) dsh-lsp-actions: failed to start';
      alarm = 'error';
      lines.push('The backend failed to start (or kept exiting) and is not restarted any more.', 'Fix the cause, then run "dsh-lsp-actions: Restart Backend".');
      break;
    case 'asking':
      text = '$(shield) dsh-lsp-actions: allow?';
      alarm = 'warning';
      lines.push("The folder brings its own dsh-lsp-actions backend; it runs once you allow it (see the notification).");
      break;
    case 'untrusted':
      text = '$(shield) dsh-lsp-actions: not allowed';
      alarm = 'warning';
      lines.push(
        "The folder's own dsh-lsp-actions was not allowed to run. Run \"dsh-lsp-actions: Allow the Workspace's Backend\", or set \"dshLspActions.serverPath\" in User settings.",
      );
      break;
    case 'missing':
      text = '$(warning) dsh-lsp-actions: not found';
      alarm = 'error';
      lines.push('No dsh-lsp-actions executable was found. Set "dshLspActions.serverPath".');
      break;
    case 'stopped':
      text = '$(circle-slash) dsh-lsp-actions: stopped';
      lines.push('The backend is not running.');
      break;
    case 'ready': {
      const freshness = input.freshness;
      if (freshness === undefined || freshness === 'fresh') {
        text = '$(check) dsh-lsp-actions';
      } else {
        text = `$(watch) dsh-lsp-actions: ${freshness}`;
        alarm = 'warning';
      }
      lines.push('The backend is ready.');
      break;
    }
  }
  if (input.detail !== undefined && input.detail !== '') lines.push(input.detail);
  if (input.file !== undefined && input.state === 'ready') {
    const counts = input.counts === undefined ? '' : ` — ${plural(input.counts.errors, 'error')}, ${plural(input.counts.warnings, 'warning')}`;
    lines.push(`${input.file}${counts}`);
    lines.push(input.freshness === undefined ? 'no diagnostics yet' : FRESHNESS_HOVER[input.freshness]);
  }
  if (input.sessionId !== undefined) lines.push(`Writes bound to session ${input.sessionId}`);
  return { text, tooltip: lines.join('\n'), alarm };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Restart backoff: 1 s, 2 s, 4 s … capped at 30 s.
 * @param attempt crashes in a row (1 for the first)
 * @returns the delay in milliseconds
 */
export function restartDelayMs(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1));
}
