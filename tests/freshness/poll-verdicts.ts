/**
 * The check every cross-file freshness scenario makes after a change: ask at once (no sleep),
 * then keep asking. Every answer must be either correct for the files as they are now or
 * marked non-fresh (`pending`/`stale`); a fresh, correct answer must arrive (the bound is a
 * generous failure limit for a loaded machine, not a speed assertion), and it must stay correct
 * when asked again.
 */
import assert from 'node:assert/strict';

/** One answer, reduced to what the scenarios compare. */
export interface Verdict {
  state: string;
  /** Error codes (as strings), sorted. */
  errors: string[];
}

/**
 * @param ask one diagnostics request for the file, now
 * @param expected the error codes the current files have (sorted), `[]` when clean
 * @param label scenario name for failure messages
 * @param limitMs give up after this long without a fresh correct answer (failure, not timing)
 * @returns every answer, in order
 */
export async function pollVerdicts(ask: () => Promise<Verdict>, expected: string[], label: string, limitMs = 120_000): Promise<Verdict[]> {
  const answers: Verdict[] = [];
  const show = (): string => answers.map((a) => `${a.state}[${a.errors.join(',')}]`).join(' → ');
  const giveUpAt = Date.now() + limitMs;
  for (;;) {
    const verdict = await ask();
    answers.push(verdict);
    if (verdict.state === 'fresh') {
      assert.deepEqual(verdict.errors, expected, `${label}: a fresh answer must describe the current files; answers: ${show()}`);
      break;
    }
    assert.ok(Date.now() < giveUpAt, `${label}: no fresh answer within ${limitMs} ms; answers: ${show()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  for (let i = 0; i < 2; i++) {
    const again = await ask();
    answers.push(again);
    if (again.state === 'fresh') assert.deepEqual(again.errors, expected, `${label}: asked again; answers: ${show()}`);
  }
  return answers;
}

/**
 * @param diagnostics wire or engine diagnostics
 * @returns the codes of the errors (severity 1 / `'error'`), as sorted strings
 */
export function errorCodes(diagnostics: ReadonlyArray<{ severity?: unknown; code?: unknown }>): string[] {
  return diagnostics
    .filter((d) => d.severity === 1 || d.severity === 'error')
    .map((d) => String(d.code))
    .sort();
}
