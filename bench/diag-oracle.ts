/**
 * Whether a diagnostics list shows a given edit: the benchmark knows what every edit must
 * produce, so "fresh" is observable from the content alone, whatever client produced it.
 */
import type { DiagExpectation } from './generate-project.ts';

/** A diagnostic reduced to what the check needs (LSP severity: 1 error … 4 hint). */
export interface DiagItem {
  line: number;
  severity: number;
  message: string;
}

/**
 * @param items the diagnostics of the edited file
 * @param expect what the edit must produce
 * @returns whether `items` reflect the edit
 */
export function reflects(items: readonly DiagItem[], expect: DiagExpectation): boolean {
  const errors = items.filter((d) => d.severity === 1);
  if (expect.kind === 'clean') return errors.length === 0;
  return errors.some((d) => d.line === expect.line && d.message.includes(`'${expect.value}'`));
}

/**
 * @param value the error's literal for this edit, or `undefined` for the fixing edit
 * @param errorLine the toggled line
 * @returns the expectation for that edit
 */
export function expectationFor(value: number | undefined, errorLine: number): DiagExpectation {
  return value === undefined ? { kind: 'clean' } : { kind: 'error', line: errorLine, value };
}

/**
 * @param raw LSP `Diagnostic[]` as received
 * @returns the reduced items
 */
export function fromLspDiagnostics(raw: unknown): DiagItem[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((d: { range?: { start?: { line?: number } }; severity?: number; message?: unknown }) => ({
    line: d.range?.start?.line ?? -1,
    severity: d.severity ?? 1,
    message: typeof d.message === 'string' ? d.message : JSON.stringify(d.message),
  }));
}
