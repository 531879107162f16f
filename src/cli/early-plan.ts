/**
 * `check`'s file plan, started before the composition boots instead of after it: asking git,
 * walking the paths, reading the tsconfigs and — the long part — the compiler's own program
 * listing (TypeScript 7's `tsc --listFilesOnly`, or the isolated 5.x config parser) need nothing
 * the composition provides. Only the last step, telling TypeScript files from others, asks the
 * booted engine's routing; it waits for the boot.
 *
 * `check` lets the plan get as far as starting the listing ({@link EarlyPlan.started}) before it
 * starts the boot: the boot's module loading holds the event loop for ~0.1 s, and git's answer
 * waited behind it, so the listing began only as the boot ended and then competed with the
 * server's project load for the CPU (measured on rxjs: listing spawned at 150–190 ms, plan done at
 * 330–470 ms). See docs/decisions/0112-plan-before-boot.md.
 *
 * The early plan assumes the TypeScript chosen before the boot; `check` uses it only when the
 * booted table runs that same TypeScript (a `--servers` entry may name another, or drop it) and
 * plans again otherwise. A failed early plan is dropped silently: planning again reports it.
 * `check` starts it for TypeScript 7 only (decision 0039: with tsserver it measured no gain).
 */
import { resolve } from 'node:path';
import { EMBEDDED_TYPESCRIPT_ID } from '../presets/embedded-typescript.ts';
import type { BootedComposition } from './boot-composition.ts';
import { type FileSet, type FileSetRequest, planFileSet } from './check-file-set.ts';
import { listNativePrograms, nativeProgramStructure, type ProgramLister } from './native-program-listing.ts';
import type { FileSnapshot } from '../lsp/engine-types.ts';
import { takeFileSnapshot } from './file-snapshot.ts';
import type { CheckCommand } from './parse-args.ts';
import { parseProgramsIsolated, type TsProgram } from './typescript-programs.ts';
import { nativeCommand, type TypeScriptChoice } from './workspace-typescript.ts';

/** What a plan is made from. */
export interface PlanInputs {
  cmd: Pick<CheckCommand, 'paths' | 'includeUnconfigured' | 'allPrograms'>;
  cwd: string;
  workspace: string;
  /** The TypeScript the run uses (undefined: no TypeScript server). */
  choice: TypeScriptChoice | undefined;
  isTypeScriptFile: (path: string) => boolean;
  signal: AbortSignal | undefined;
  /** Awaited after the programs are read and before any file is classified. */
  gate?: Promise<unknown>;
  /**
   * Called when the plan has reached the compiler's listings (TypeScript 7: its `tsc` processes
   * spawned, or, with {@link lister}, waiting for it to be known).
   */
  onListing?: () => void;
  /**
   * TypeScript 7: where a program's listing may come from before its `tsc` is run (the language
   * server `check` starts once the plan has reached this point; undefined: none). Must settle.
   */
  lister?: Promise<ProgramLister | undefined>;
}

/**
 * @param inputs the command, workspace, TypeScript, routing
 * @returns the request for {@link planFileSet}: TypeScript 7 has no compiler API in JS, so the
 *   configs' own references give the structure and its native tsc lists each program's files
 */
export function fileSetRequest(inputs: PlanInputs): FileSetRequest {
  const { choice, gate } = inputs;
  const native = choice?.kind === 'native' ? nativeCommand(choice.serverPath) : undefined;
  const after = async <T>(work: Promise<T>): Promise<T> => {
    const value = await work;
    await gate;
    return value;
  };
  return {
    paths: inputs.cmd.paths,
    cwd: inputs.cwd,
    workspace: inputs.workspace,
    parsePrograms:
      choice === undefined
        ? undefined
        : native === undefined
          ? (configs) => after(parseProgramsIsolated(choice.packageDir, configs))
          : nativeProgramStructure,
    isTypeScriptFile: inputs.isTypeScriptFile,
    includeUnconfigured: inputs.cmd.includeUnconfigured,
    allPrograms: inputs.cmd.allPrograms,
    ...(native === undefined
      ? {}
      : {
          completePrograms: (programs: TsProgram[]) => {
            const { lister } = inputs;
            // a program with references is never the server's to list: its tsc starts without waiting for the lister
            const listing = listNativePrograms(native, programs, inputs.signal, lister === undefined ? undefined : async (program, signal) => (program.references.length > 0 ? undefined : (await lister)?.(program, signal)));
            inputs.onListing?.();
            return after(listing);
          },
        }),
  };
}

/** The early plan's walk. */
export interface Walked {
  files: readonly string[];
  snapshot: FileSnapshot;
}

/** A plan started before the boot, for the TypeScript chosen then. */
export interface EarlyPlan {
  /**
   * @param choice the TypeScript the booted table runs
   * @returns the files the walk found and the snapshot of their versions taken right after it
   *   (before the boot ended, so before any server), while the plan is not taken and was made
   *   for `choice` (the run that will take it), else undefined; undefined too when the plan
   *   failed before its walk ended
   */
  walked(choice: TypeScriptChoice | undefined): Promise<Walked | undefined> | undefined;
  /**
   * @param choice the TypeScript the booted table runs
   * @returns the plan, once (a `--watch` re-check plans anew); undefined when it was made for
   *   another TypeScript, or failed (plan again: that reports the failure)
   */
  take(choice: TypeScriptChoice | undefined): Promise<FileSet | undefined>;
  /**
   * Resolves once the plan has walked the paths, taken its snapshot and reached the compiler's
   * listings (started them, or waits for its `lister`) — the point from which it waits on child
   * processes, the server and the boot — or has ended without getting there. Never rejects.
   */
  readonly started: Promise<void>;
}

/**
 * @param inputs as for {@link fileSetRequest}, without the routing (the booted engine's is used)
 * @param booting the composition's boot (it may be started later: see {@link EarlyPlan.started})
 * @returns the plan under way
 */
export function startEarlyPlan(inputs: Omit<PlanInputs, 'isTypeScriptFile' | 'gate' | 'choice'> & { choice: TypeScriptChoice }, booting: Promise<BootedComposition>): EarlyPlan {
  let route: ((path: string) => boolean) | undefined;
  const gate = booting.then((booted) => {
    const engine = booted.lspActions()?.engine;
    route = (path) => engine?.serversFor(path, inputs.workspace).includes(EMBEDDED_TYPESCRIPT_ID) === true;
  });
  // a failed boot is reported by the run; here it only ends the early plan
  gate.catch(() => undefined);
  const isTypeScriptFile = (path: string): boolean => {
    if (route === undefined) throw new Error(`early plan: ${resolve(path)} classified before the boot`);
    return route(path);
  };
  let found: ((walked: Walked | undefined) => void) | undefined;
  const collected = new Promise<Walked | undefined>((settle) => (found = settle));
  // the snapshot is taken here, synchronously after the walk: before the boot ends, no server exists
  const onCollected = (files: readonly string[]): void => found?.({ files, snapshot: takeFileSnapshot(files) });
  let listing: (() => void) | undefined;
  const started = new Promise<void>((settle) => (listing = settle));
  const fileSet = planFileSet({ ...fileSetRequest({ ...inputs, isTypeScriptFile, gate, onListing: () => listing?.() }), onCollected }).catch(() => undefined);
  // a plan that failed before its walk ended found nothing
  void fileSet.then(() => {
    found?.(undefined);
    listing?.();
  });
  let taken = false;
  return {
    started,
    walked(choice) {
      return taken || choice !== inputs.choice ? undefined : collected;
    },
    take(choice) {
      const first = !taken;
      taken = true;
      return first && choice === inputs.choice ? fileSet : Promise.resolve(undefined);
    },
  };
}
