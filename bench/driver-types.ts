/**
 * What the suite asks of each client under test: (a) the engine, (b) the raw floor,
 * (c) the transient open → request → close client.
 */

/** One timed diagnostics call. */
export interface DiagSample {
  ms: number;
  /** The result reflected the edit (and, for the engine, was reported `fresh`). */
  ok: boolean;
  /** Why not ok. */
  note?: string;
  /** Engine only: when the first publish/pull reflecting the edit reached the engine. */
  firstSeenMs?: number;
}

/** The publishes one didOpen/didChange caused (floor client, push servers). */
export interface PublishCycle {
  /** `open` for the cold didOpen, `error`/`clean` for edits. */
  kind: 'open' | 'error' | 'clean';
  /** Publishes for the file until the next edit. */
  count: number;
  /** ms from the first to the last of them. */
  spanMs: number;
  /** The first one already showed the edit (nothing later changed the answer). */
  firstFinal: boolean;
  /** The first one was an empty list. */
  firstEmpty: boolean;
}

/** One request of the mixed batch. */
export interface MixRequest {
  name: string;
  run(): Promise<unknown>;
}

/** A client under test, bound to one generated project and one server. */
export interface BenchDriver {
  readonly label: string;
  /** Starts the server; returns the time to the first fresh diagnostics of the app file. */
  coldStart(): Promise<DiagSample>;
  /**
   * Rewrites the error line (one-line edit) and waits for diagnostics that show it.
   * @param value the error's literal, or `undefined` to fix the error
   */
  edit(value: number | undefined): Promise<DiagSample>;
  /** One completion request; returns its time and item count. */
  completion(): Promise<{ ms: number; items: number }>;
  /** Restores the app file to its generated content (before the mixed batch). */
  resetApp(): Promise<void>;
  /** The 8 mixed requests, when this client takes part in the parallel measurement. */
  mix?(): MixRequest[];
  /** Publish bookkeeping (floor client on push servers), complete once the driver stopped. */
  publishCycles?(): PublishCycle[];
  /** Root pids of the server processes (their trees are measured). */
  serverPids(): number[];
  /** Stops the server(s). */
  stop(): Promise<void>;
}
