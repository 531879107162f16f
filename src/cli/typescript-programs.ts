/**
 * The compiler's file set for `check`: the `tsconfig.json` / `jsconfig.json` programs that cover
 * the given paths, parsed by TypeScript's own API (the TypeScript the run uses), so `include`,
 * `exclude`, `files`, `extends` and project `references` mean exactly what they mean to `tsc`.
 *
 * A program covers a path when its config lies inside the path (found by `check`'s walk) or in
 * one of the path's ancestors up to the workspace root. Referenced projects are followed. A
 * program's files are its root files (`parsed.fileNames`): what `include`/`files` select, minus
 * `exclude`. Config errors (unknown options, no inputs, a missing `extends`) are kept as
 * diagnostics of the config file, as `tsc -p` prints them.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type * as TypeScript from 'typescript';
import type { ReportDiagnostic } from './check-report.ts';
import type { SeverityName } from './parse-args.ts';

/** Config file names that define a program. */
export const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'] as const;

/** One parsed program. */
export interface TsProgram {
  /** Absolute config path. */
  configPath: string;
  /** Absolute root file paths. */
  files: string[];
  /**
   * What the compiler reports before it checks: config problems keyed by the file they are in
   * (the config or an extended one) and, when the program was listed by a native `tsc`
   * ({@link listNativePrograms}), syntax errors of its files.
   */
  errors: Array<{ path: string; diagnostic: ReportDiagnostic }>;
  /** Absolute config paths of the projects it references. */
  references: string[];
  /**
   * Declaration file each source file is built into (`.d.ts` under its outDir/declarationDir →
   * the source), when the program emits declarations: a program that reads another's built
   * `.d.ts` without referencing it is judged against that output (see stale-build-outputs.ts).
   */
  declarationOutputs?: Record<string, string>;
  /** Where a TypeScript 7 program's declarations go (from its own config), to compute {@link declarationOutputs} once listed. */
  declarationLayout?: { outDir: string; rootDir: string };
  /** Composite and emitting: a project that can be referenced (what a solution builds before its dependents). */
  buildsReference?: true;
  /** Absolute paths of the configs it extends (directly or not), when any. */
  extended?: string[];
  /**
   * The compiler's whole file list was read (`tsc --listFilesOnly`): `files` holds every file
   * the program checks (imports, `/// <reference>`s, `types`), not only its root files.
   */
  complete?: true;
  /**
   * The compiler stops before the semantic check (syntax errors, or a config it cannot use):
   * only {@link errors} are this program's verdict, as `tsc` prints them.
   */
  stops?: true;
}

type Ts = typeof TypeScript;

/** Options tsserver gives every `jsconfig.json` project. */
const JSCONFIG_DEFAULTS = { allowJs: true, maxNodeModuleJsDepth: 2, allowSyntheticDefaultImports: true, skipLibCheck: true, noEmit: true };

/**
 * @param packageDir a TypeScript package directory
 * @returns its compiler API module
 */
export function loadTypeScript(packageDir: string): Ts {
  const require = createRequire(join(packageDir, 'package.json'));
  return require(join(packageDir, 'lib', 'typescript.js')) as Ts;
}

/**
 * {@link parsePrograms} in a short-lived child process: loading the compiler API costs the CLI
 * ~60 MB that would otherwise stay resident next to the language servers for the whole run.
 * @param packageDir the TypeScript package whose API parses
 * @param configs absolute config paths to start from
 * @returns the programs; rejects when the child fails (its stderr in the message)
 */
export function parseProgramsIsolated(packageDir: string, configs: readonly string[]): Promise<TsProgram[]> {
  if (configs.length === 0) return Promise.resolve([]);
  return runIsolated<TsProgram[]>({ packageDir, configs });
}

/** One syntax error as the parser reports it (zero-based UTF-16 position). */
export interface ParseError {
  line: number;
  character: number;
  code: number;
}

/**
 * The parser's own diagnostics of some files (what `tsc` reports as syntactic), in a short-lived
 * child process like {@link parseProgramsIsolated}.
 * @param packageDir the TypeScript package whose parser reads them
 * @param files absolute paths
 * @returns file → its syntax errors (empty when it parses cleanly)
 */
export function syntaxErrorsIsolated(packageDir: string, files: readonly string[]): Promise<Record<string, ParseError[]>> {
  if (files.length === 0) return Promise.resolve({});
  return runIsolated<Record<string, ParseError[]>>({ packageDir, syntax: files });
}

/**
 * @param ts the compiler API
 * @param files absolute paths
 * @param read reads a file's text
 * @returns file → the parser's diagnostics
 */
export function syntaxErrors(ts: Ts, files: readonly string[], read: (path: string) => string): Record<string, ParseError[]> {
  const out: Record<string, ParseError[]> = {};
  for (const file of files) {
    const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, false);
    const parsed = (source as unknown as { parseDiagnostics?: TypeScript.Diagnostic[] }).parseDiagnostics ?? [];
    out[file] = parsed.map((d) => ({ ...ts.getLineAndCharacterOfPosition(source, d.start ?? 0), code: d.code }));
  }
  return out;
}

function runIsolated<T>(request: Record<string, unknown>): Promise<T> {
  const self = fileURLToPath(import.meta.url);
  const script = join(dirname(self), `typescript-programs-process${extname(self)}`);
  return new Promise((resolvePrograms, reject) => {
    const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        const stderr = Buffer.concat(err).toString('utf8').trim();
        reject(new Error(`reading tsconfig files failed: ${stderr || `exit ${String(code)}`}`));
        return;
      }
      try {
        resolvePrograms(JSON.parse(Buffer.concat(out).toString('utf8')) as T);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    child.stdin.end(JSON.stringify(request));
  });
}

/**
 * @param ts the compiler API
 * @param configs absolute config paths to start from
 * @returns every program reachable from them (references followed), each once, in discovery order
 */
export function parsePrograms(ts: Ts, configs: readonly string[]): TsProgram[] {
  return followReferences(configs, (configPath) => parseOne(ts, configPath));
}

/**
 * The programs reachable from `configs` through project references, each once, in discovery order.
 * @param configs config paths to start from
 * @param readOne reads one config: its program and the configs it references
 * @returns the programs
 */
export function followReferences(configs: readonly string[], readOne: (configPath: string) => { program: TsProgram; references: readonly string[] }): TsProgram[] {
  const seen = new Set<string>();
  const out: TsProgram[] = [];
  const queue = [...configs];
  while (queue.length > 0) {
    const configPath = resolve(queue.shift() as string);
    if (seen.has(configPath)) continue;
    seen.add(configPath);
    const { program, references } = readOne(configPath);
    out.push(program);
    queue.push(...references);
  }
  return out;
}

function parseOne(ts: Ts, configPath: string): { program: TsProgram; references: string[] } {
  const unrecoverable: TypeScript.Diagnostic[] = [];
  const host: TypeScript.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => unrecoverable.push(d),
  };
  const existing = configPath.endsWith('jsconfig.json') ? JSCONFIG_DEFAULTS : {};
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, existing, host);
  // A JSON syntax error is on the config's source file (what `tsc` gets from
  // getConfigFileParsingDiagnostics), not in `errors`: without it a broken tsconfig passed.
  const syntax = (parsed?.options.configFile as { parseDiagnostics?: TypeScript.Diagnostic[] } | undefined)?.parseDiagnostics ?? [];
  const diagnostics = [...unrecoverable, ...syntax, ...(parsed?.errors ?? [])];
  const errors = diagnostics.map((d) => ({
    path: d.file?.fileName === undefined ? configPath : resolve(d.file.fileName),
    diagnostic: toReportDiagnostic(ts, d),
  }));
  const files = (parsed?.fileNames ?? []).map((file) => resolve(file));
  const references = (parsed?.projectReferences ?? []).map((ref) => {
    const target = resolve(dirname(configPath), ref.path);
    return target.endsWith('.json') ? target : join(target, 'tsconfig.json');
  });
  const declarationOutputs: Record<string, string> = {};
  if (parsed !== undefined && (parsed.options.declaration === true || parsed.options.composite === true)) {
    for (const file of files) {
      if (/\.d\.[cm]?ts$/.test(file)) continue;
      for (const output of ts.getOutputFileNames(parsed, file, !ts.sys.useCaseSensitiveFileNames)) {
        if (/\.d\.[cm]?ts$/.test(output)) declarationOutputs[resolve(output)] = file;
      }
    }
  }
  const program: TsProgram = { configPath, files, errors, references };
  if (Object.keys(declarationOutputs).length > 0) program.declarationOutputs = declarationOutputs;
  if (parsed?.options.composite === true && parsed.options.noEmit !== true) program.buildsReference = true;
  const extended = (parsed?.options.configFile as TypeScript.TsConfigSourceFile | undefined)?.extendedSourceFiles ?? [];
  if (extended.length > 0) program.extended = extended.map((path) => resolve(path));
  return { program, references };
}

const CATEGORY_SEVERITY: Record<number, SeverityName> = { 0: 'warning', 1: 'error', 2: 'hint', 3: 'info' };

function toReportDiagnostic(ts: Ts, d: TypeScript.Diagnostic): ReportDiagnostic {
  const start = d.file !== undefined && d.start !== undefined ? ts.getLineAndCharacterOfPosition(d.file, d.start) : { line: 0, character: 0 };
  const end =
    d.file !== undefined && d.start !== undefined ? ts.getLineAndCharacterOfPosition(d.file, d.start + (d.length ?? 0)) : start;
  return {
    severity: CATEGORY_SEVERITY[d.category] ?? 'error',
    range: { start, end },
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    source: 'typescript',
    code: d.code,
  };
}

/**
 * @param dir an absolute directory
 * @param workspace the absolute workspace root (the search stops there)
 * @param exists whether a file exists
 * @returns config files in `dir`'s ancestors (excluding `dir`), nearest first, up to and including `workspace`
 */
export function ancestorConfigs(dir: string, workspace: string, exists: (path: string) => boolean): string[] {
  const out: string[] = [];
  if (dir === workspace) return out;
  let current = dirname(dir);
  for (;;) {
    for (const name of CONFIG_NAMES) {
      const candidate = join(current, name);
      if (exists(candidate)) out.push(candidate);
    }
    const parent = dirname(current);
    if (current === workspace || parent === current || !isWithin(workspace, parent)) return out;
    current = parent;
  }
}

function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !rel.startsWith(sep));
}
