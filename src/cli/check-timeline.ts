/**
 * Where a `check` run spends its fixed costs: with `DSH_LSP_ACTIONS_TIMELINE=1`, one stderr line
 * per phase, `timeline: 412.3 ms plan done`, the time since the process started (Node's
 * `performance.timeOrigin`). `node bench/check-vs-tsc.ts --timeline` tabulates these lines. Off by default: a mark
 * then costs one property check.
 */

/** Phases a run marks, in the order they usually happen (some overlap). */
export type TimelinePhase =
  | 'cli loaded'
  | 'composition booted'
  | 'plan done'
  | 'server ready'
  | 'project loaded'
  | 'first answer'
  | 'all answers'
  | 'report written'
  | 'disposed';

/** Marks phases of one run. */
export interface CheckTimeline {
  /** @param phase the phase just reached (the first mark of a phase counts; repeats are ignored) */
  mark(phase: TimelinePhase): void;
}

/** The environment switch. */
export const TIMELINE_ENV = 'DSH_LSP_ACTIONS_TIMELINE';

const OFF: CheckTimeline = { mark: () => undefined };

/**
 * @param env the run's environment ({@link TIMELINE_ENV} `1` turns the lines on)
 * @param stderr where the lines go
 * @returns a timeline (a no-op one when off)
 */
export function checkTimeline(env: Readonly<Record<string, string | undefined>>, stderr: NodeJS.WritableStream): CheckTimeline {
  if (env[TIMELINE_ENV] !== '1') return OFF;
  const seen = new Set<TimelinePhase>();
  return {
    mark(phase) {
      if (seen.has(phase)) return;
      seen.add(phase);
      stderr.write(`timeline: ${performance.now().toFixed(1)} ms ${phase}\n`);
    },
  };
}

/**
 * @param text a run's stderr
 * @returns phase → milliseconds since the process started, from the timeline lines in it
 */
export function parseTimeline(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^timeline: ([\d.]+) ms (.+)$/gm)) out.set(m[2] as string, Number(m[1]));
  return out;
}
