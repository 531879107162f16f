/**
 * `check --watch`'s memory of declaration signatures — `tsc --watch`'s builder rule: an edit
 * that leaves a file's emitted declarations (its `.d.ts`, hashed) unchanged cannot change what
 * its importers' checks see of it, so their previous verdicts stand (decision 0109). The
 * signatures come from the tsserver that judged the files (its signature plugin, through
 * {@link LspEngineApi.declarationSignatures}).
 *
 * A signature is bound to the text it was taken for by the file's stat signature (the rule
 * watch-affected.ts keeps for a file's scope): stored only when the stat the caller says the
 * file was judged at equals the stat after the answer (the disk did not move between the
 * server's read and its answer), and used only for that same stat. A file asked again by a run
 * loses its signature until that run records a new one (its declarations may depend on what it
 * imports, which that run judged anew).
 */
import type { DeclarationSignature, LspEngineApi } from '../lsp/engine-types.ts';
import { currentSignature } from './unwatched-files.ts';

/**
 * How long a run's background recording may take (a wedged tsserver must not hold the next
 * re-check): past it nothing more is recorded, and those files' next edit walks their importers.
 */
export const RECORD_TIMEOUT_MS = 30_000;

/** What asking needs of the engine. */
export type SignatureEngine = Pick<LspEngineApi, 'declarationSignatures'>;

/** A signature with the stat of the text it was taken for. */
interface Taken {
  stat: string;
  declaration: DeclarationSignature;
}

/** One watch's declaration signatures. */
export class WatchDeclarations {
  private readonly known = new Map<string, Taken>();
  /** The signatures being recorded after a run (the next selection waits for them). */
  private recording: Promise<void> = Promise.resolve();

  /**
   * @param path a file
   * @param stat the stat signature of the text asked about
   * @returns the signature recorded for that text, if any
   */
  at(path: string, stat: string): DeclarationSignature | undefined {
    const taken = this.known.get(path);
    return taken !== undefined && taken.stat === stat ? taken.declaration : undefined;
  }

  /** @param paths files asked again by a run: their signatures may no longer hold */
  forget(paths: Iterable<string>): void {
    for (const path of paths) this.known.delete(path);
  }

  /** Every signature may no longer hold (a run asks every file). */
  forgetAll(): void {
    this.known.clear();
  }

  /** @returns once the signatures of the last finished run are recorded */
  recorded(): Promise<void> {
    return this.recording;
  }

  /**
   * Asks the server now and records what it vouched for.
   * @param engine the engine (without `declarationSignatures`: nothing is known)
   * @param root workspace root
   * @param judgedAt path → the stat signature of the text the server was last given (the files
   *   must have been judged fresh at it); a file whose stat moved by the answer gets nothing
   * @param signal cancels (an abort rejects)
   * @returns the signatures recorded
   */
  async ask(engine: SignatureEngine, root: string, judgedAt: ReadonlyMap<string, string>, signal?: AbortSignal): Promise<Map<string, DeclarationSignature>> {
    const out = new Map<string, DeclarationSignature>();
    if (typeof engine.declarationSignatures !== 'function' || judgedAt.size === 0) return out;
    const answered = await engine.declarationSignatures([...judgedAt.keys()], root, signal === undefined ? {} : { signal });
    for (const [path, stat] of judgedAt) {
      const declaration = answered.get(path);
      if (declaration === undefined || currentSignature(path) !== stat) continue;
      this.known.set(path, { stat, declaration });
      out.set(path, declaration);
    }
    return out;
  }

  /**
   * Records after a run, in the background (a failure records nothing: those files' next edit
   * re-checks their importers).
   * @param engine the engine
   * @param root workspace root
   * @param judgedAt the files the run asked and found fresh, each with its stat then
   * @returns once recorded: how many files have a signature for their judged text now
   */
  record(engine: SignatureEngine, root: string, judgedAt: ReadonlyMap<string, string>): Promise<number> {
    const wanted = new Map([...judgedAt].filter(([path, stat]) => this.at(path, stat) === undefined));
    const known = (): number => [...judgedAt].filter(([path, stat]) => this.at(path, stat) !== undefined).length;
    const done = this.recording.then(() => this.ask(engine, root, wanted, AbortSignal.timeout(RECORD_TIMEOUT_MS))).then(known, known);
    this.recording = done.then(() => undefined);
    return done;
  }
}

/** Why an edit's importers must be asked again; `everything`: every file must be. */
export interface DeclarationsChange {
  why: string;
  everything: boolean;
}

/**
 * Whether an edit left every changed file's declarations as they were (tsc's builder rule).
 * @param sources the changed files: each with the signature of its old text (the one the
 *   kept verdicts were judged with) and the one just taken for its new text
 * @returns why the importers must be asked again — every file when a changed file declares
 *   globals now or its program's files changed — or undefined when none must
 */
export function declarationsChanged(
  sources: ReadonlyArray<{ path: string; before: DeclarationSignature | undefined; now: DeclarationSignature | undefined }>,
): DeclarationsChange | undefined {
  for (const { path, before, now } of sources) {
    if (before === undefined || before.global) return { why: `the declarations ${path} was last judged with are not known (or global)`, everything: false };
    if (now === undefined) return { why: `the server gave no declaration signature of ${path}`, everything: false };
    if (now.global) return { why: `${path} declares globals now`, everything: true };
    if (before.program !== now.program) return { why: `the files of ${path}'s program changed`, everything: true };
  }
  const changed = sources.find(({ before, now }) => before?.signature !== now?.signature);
  return changed === undefined ? undefined : { why: `${changed.path}'s declarations changed`, everything: false };
}
