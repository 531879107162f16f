/**
 * The compiler's reporting rule for syntax errors: `tsc` asks every file of a program for its
 * syntactic diagnostics first, and when there are any it reports those and stops — the semantic
 * errors that follow from a broken file (often many) are never printed. A language server
 * answers both kinds together; this module applies `tsc`'s rule to `check`'s report.
 *
 * Which reported diagnostics are syntactic is asked of the run's own parser
 * (`ts.createSourceFile`'s parse diagnostics, in a child process), for the few files whose
 * answer holds a TS1xxx code (the parser's range) — a clean run parses nothing. A program with
 * at least one such error keeps, in every file, only the diagnostics the parser reported; a file
 * also in a program without syntax errors keeps everything. TypeScript 7 programs get this from
 * their own `tsc --listFilesOnly` instead (native-program-listing.ts).
 */
import type { FileReport, ReportDiagnostic } from './check-report.ts';
import type { ParseError, TsProgram } from './typescript-programs.ts';

/** Codes below this are the parser's and the grammar checker's (TS1xxx). */
const PARSER_CODES_BELOW = 2000;

function isCandidate(diagnostic: ReportDiagnostic): boolean {
  const code = Number(diagnostic.code);
  return Number.isInteger(code) && code > 0 && code < PARSER_CODES_BELOW;
}

const keyOf = (line: number, character: number, code: unknown): string => `${line}:${character}:${String(code)}`;

/**
 * @param reports the files checked
 * @param programs the programs they belong to
 * @param parse the parser's errors of some files
 * @returns the reports with `tsc`'s rule applied (the same objects when nothing changes)
 */
export async function applySyntaxFirst(
  reports: readonly FileReport[],
  programs: readonly TsProgram[],
  parse: (files: string[]) => Promise<Record<string, ParseError[]>>,
): Promise<FileReport[]> {
  const candidates = reports.filter((report) => report.diagnostics.some(isCandidate)).map((report) => report.path);
  if (candidates.length === 0) return [...reports];
  const parsed = await parse(candidates);
  const syntactic = new Map<string, Set<string>>();
  for (const report of reports) {
    const keys = new Set((parsed[report.path] ?? []).map((e) => keyOf(e.line, e.character, e.code)));
    const reported = report.diagnostics.filter((d) => keys.has(keyOf(d.range.start.line, d.range.start.character, d.code)));
    if (reported.length > 0) syntactic.set(report.path, keys);
  }
  if (syntactic.size === 0) return [...reports];
  const stopping = programs.filter((program) => program.files.some((file) => syntactic.has(file)));
  if (stopping.length === 0) return [...reports];
  const going = new Set<string>();
  for (const program of programs) if (!stopping.includes(program)) for (const file of program.files) going.add(file);
  const stopped = new Set<string>();
  for (const program of stopping) for (const file of program.files) if (!going.has(file)) stopped.add(file);
  return reports.map((report) => {
    if (!stopped.has(report.path)) return report;
    const keys = syntactic.get(report.path) ?? new Set<string>();
    const diagnostics = report.diagnostics.filter((d) => keys.has(keyOf(d.range.start.line, d.range.start.character, d.code)));
    return diagnostics.length === report.diagnostics.length ? report : { ...report, diagnostics };
  });
}
