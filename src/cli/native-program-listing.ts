/**
 * A TypeScript 7 program as its own compiler sees it: `tsc -p CONFIG --listFilesOnly` of the
 * workspace's native `tsc` prints every file of the program (root files, imports,
 * `/// <reference>`s, `types`, libraries) and what it reports before checking — config problems,
 * syntax errors of any file, option errors — and stops. About 0.1 s a program, so `check` takes a
 * TypeScript 7 program's whole file list and its early verdict from the compiler itself instead
 * of from another TypeScript's config parser. See docs/decisions/0031-typescript-7-native-server.md.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { batchGoGc, listingGoProcs } from './go-runtime-env.ts';
import { parseJsonc } from './jsonc.ts';
import type { ReportDiagnostic } from './check-report.ts';
import type { SeverityName } from './parse-args.ts';
import { followReferences, type TsProgram } from './typescript-programs.ts';

/** Programs listed at once. */
const CONCURRENCY = 4;

/** How to run the native `tsc` (see `nativeCommand` in workspace-typescript.ts). */
export interface NativeTsc {
  command: string;
  args: string[];
}

/** One program's listing. */
export interface NativeListing {
  /** Absolute paths of the program's files, outside `node_modules` (the compiler's libraries and packages are left out). */
  files: string[];
  /** Diagnostics printed, keyed by absolute path (a location-less one is the config's). */
  diagnostics: Array<{ path: string; diagnostic: ReportDiagnostic }>;
}

const LOCATED = /^(.+)\((\d+),(\d+)\): (error|warning|message) TS(\d+): (.*)$/;
const UNLOCATED = /^(error|warning|message) TS(\d+): (.*)$/;
const SEVERITY: Record<string, SeverityName> = { error: 'error', warning: 'warning', message: 'info' };

/** The source TypeScript 7's own server gives its diagnostics: the listing's say the same, so one run labels one compiler one way. */
const NATIVE_SOURCE = 'ts';

/**
 * @param stdout what `tsc --listFilesOnly --pretty false` printed
 * @param cwd the directory it ran in (relative paths in diagnostics resolve against it)
 * @param configPath the program's config (a location-less diagnostic belongs to it)
 * @returns the files and diagnostics
 */
export function parseNativeListing(stdout: string, cwd: string, configPath: string): NativeListing {
  const files: string[] = [];
  const diagnostics: NativeListing['diagnostics'] = [];
  for (const line of stdout.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const last = diagnostics.at(-1);
    if (line.startsWith('  ') && last !== undefined) {
      last.diagnostic.message += `\n${line.trim()}`;
      continue;
    }
    const located = LOCATED.exec(line);
    if (located !== null) {
      const [, file = '', row = '1', column = '1', severity = 'error', code = '0', message = ''] = located;
      const start = { line: Number(row) - 1, character: Number(column) - 1 };
      diagnostics.push({
        path: resolve(cwd, file),
        diagnostic: { severity: SEVERITY[severity] ?? 'error', range: { start, end: start }, message, source: NATIVE_SOURCE, code: Number(code) },
      });
      continue;
    }
    const unlocated = UNLOCATED.exec(line);
    if (unlocated !== null) {
      const [, severity = 'error', code = '0', message = ''] = unlocated;
      const start = { line: 0, character: 0 };
      diagnostics.push({ path: configPath, diagnostic: { severity: SEVERITY[severity] ?? 'error', range: { start, end: start }, message, source: NATIVE_SOURCE, code: Number(code) } });
      continue;
    }
    if (listedProgramFile(line)) files.push(resolve(line));
  }
  return { files, diagnostics };
}

/**
 * @param name a file name the compiler lists for a program
 * @returns whether it is one of the program's own files: absolute and outside `node_modules`
 *   (the compiler's libraries and packages are left out)
 */
export function listedProgramFile(name: string): boolean {
  return isAbsolute(name) && !name.split(/[\\/]/).includes('node_modules');
}

/**
 * Problems found while reading a tsconfig (its JSON syntax, TS1xxx; an unknown option, a value
 * of the wrong type, an unreadable or empty config): `tsc` reports them and checks on. Every
 * other diagnostic on a config is one of the program's option diagnostics (an option TypeScript
 * 7 removed, TS5102; options that conflict), after which `tsc` stops, as after a syntax error.
 */
const CONFIG_READING_CODES = new Set([5023, 5024, 5025, 5083, 5092, 6046, 18002, 18003]);

/**
 * Whether `tsc` stops before its semantic check on this listing (measured with TypeScript 7.0.2:
 * a syntax error in a source file, or an option diagnostic on the config, stops it; a JSON
 * syntax error or an unknown option in the config does not).
 * @param listing a program's listing
 * @returns whether only the listing's diagnostics are the program's verdict
 */
export function stopsBeforeChecking(listing: NativeListing): boolean {
  return listing.diagnostics.some(({ path, diagnostic }) => {
    const code = Number(diagnostic.code);
    return !path.endsWith('.json') || !(code < 2000 || CONFIG_READING_CODES.has(code));
  });
}

/**
 * @param tsc the native compiler
 * @param configPath absolute config path
 * @param signal cancels (kills the child)
 * @returns the program's listing; rejects when `tsc` cannot run or prints nothing usable
 */
export function listNativeProgram(tsc: NativeTsc, configPath: string, signal?: AbortSignal): Promise<NativeListing> {
  const cwd = dirname(configPath);
  return new Promise((resolveListing, reject) => {
    const child = spawn(tsc.command, [...tsc.args, '-p', configPath, '--listFilesOnly', '--pretty', 'false'], {
      cwd,
      env: { ...process.env, ...batchGoGc(process.env), ...listingGoProcs(process.env, availableParallelism()) },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(signal === undefined ? {} : { signal }),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const listing = parseNativeListing(Buffer.concat(out).toString('utf8'), cwd, configPath);
      // Exit 1 with diagnostics is an answer; anything else without files or diagnostics is not.
      if (listing.files.length === 0 && listing.diagnostics.length === 0 && code !== 0) {
        const stderr = Buffer.concat(err).toString('utf8').trim();
        reject(new Error(`${tsc.command} --listFilesOnly -p ${configPath} failed: ${stderr || `exit ${String(code)}`}`));
        return;
      }
      resolveListing(listing);
    });
  });
}

/**
 * The structure of TypeScript 7 programs without any compiler API (TypeScript 7 has none in
 * JS; loading the embedded 5.9's costs ~0.6 s and 90 MB): each config's own `references`
 * (not inherited through `extends`, so the config's own JSON is exact), followed. Files and
 * errors come from the native listing ({@link listNativePrograms}); a config that does not
 * parse gets its error there.
 * @param configs absolute config paths to start from
 * @returns every program reachable, each once, in discovery order (files and errors empty)
 */
export function nativeProgramStructure(configs: readonly string[]): TsProgram[] {
  return followReferences(configs, nativeProgramOf);
}

/** One config read as JSON: its program (files and errors empty) and the configs it references. */
function nativeProgramOf(configPath: string): { program: TsProgram; references: string[] } {
  const json = readConfig(configPath);
  const references: string[] = [];
  for (const ref of Array.isArray(json?.['references']) ? json['references'] : []) {
    const path = isRecord(ref) && typeof ref['path'] === 'string' ? ref['path'] : undefined;
    if (path === undefined) continue;
    const target = resolve(dirname(configPath), path);
    references.push(target.endsWith('.json') ? target : join(target, 'tsconfig.json'));
  }
  const program: TsProgram = { configPath, files: [], errors: [], references };
  const options = isRecord(json?.['compilerOptions']) ? json['compilerOptions'] : undefined;
  const outDir = typeof options?.['declarationDir'] === 'string' ? options['declarationDir'] : typeof options?.['outDir'] === 'string' ? options['outDir'] : undefined;
  if (outDir !== undefined && (options?.['composite'] === true || options?.['declaration'] === true)) {
    program.declarationLayout = {
      outDir: resolve(dirname(configPath), outDir),
      rootDir: resolve(dirname(configPath), typeof options?.['rootDir'] === 'string' ? options['rootDir'] : '.'),
    };
  }
  return { program, references };
}

function readConfig(path: string): Record<string, unknown> | undefined {
  try {
    const value = parseJsonc(readFileSync(path, 'utf8'));
    return isRecord(value) ? value : undefined;
  } catch {
    // Unreadable or not JSON: the native listing reports it on the config.
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * @param program a listed program with a declaration layout
 * @returns its sources' `.d.ts` outputs (output → source), by TypeScript's rule: the source's
 *   path below rootDir, under outDir (declarationDir), `.ts`/`.tsx` → `.d.ts`, `.mts` → `.d.mts`, `.cts` → `.d.cts`
 */
function declarationOutputsOf(program: TsProgram): Record<string, string> | undefined {
  const layout = program.declarationLayout;
  if (layout === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const file of program.files) {
    if (/\.d\.[cm]?ts$/.test(file) || !/\.[cm]?tsx?$/.test(file)) continue;
    const rel = relative(layout.rootDir, file);
    if (rel.startsWith('..')) continue;
    out[join(layout.outDir, rel).replace(/\.([cm]?)tsx?$/, '.d.$1ts')] = file;
  }
  return out;
}

/**
 * A listing some other source can give for a program (the language server that has it loaded,
 * server-program-listing.ts), or undefined: then the compiler's own is run.
 */
export type ProgramLister = (program: TsProgram, signal?: AbortSignal) => Promise<NativeListing | undefined>;

/**
 * Replaces each program's root files and config errors by what its native `tsc` lists.
 * @param tsc the native compiler
 * @param programs programs parsed for their structure (references)
 * @param signal cancels
 * @param lister asked first for each program; its undefined runs `tsc`
 * @returns the programs, `complete`, with the compiler's own files, errors and whether it stops
 */
export async function listNativePrograms(tsc: NativeTsc, programs: readonly TsProgram[], signal?: AbortSignal, lister?: ProgramLister): Promise<TsProgram[]> {
  const out: TsProgram[] = [...programs];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < out.length) {
      const index = next++;
      const program = out[index] as TsProgram;
      const listing = (await lister?.(program, signal)) ?? (await listNativeProgram(tsc, program.configPath, signal));
      const { stops: _stops, ...rest } = program;
      const listed: TsProgram = { ...rest, files: listing.files, errors: listing.diagnostics, complete: true, ...(stopsBeforeChecking(listing) ? { stops: true as const } : {}) };
      const outputs = declarationOutputsOf(listed);
      if (outputs !== undefined) listed.declarationOutputs = outputs;
      out[index] = listed;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, out.length) }, worker));
  return out;
}

/** @returns whether a path lies under a `node_modules` directory */
export function inNodeModules(path: string): boolean {
  return path.split(sep).includes('node_modules');
}
