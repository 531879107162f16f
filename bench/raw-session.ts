/**
 * What the floor (b) and transient (c) clients share: `initialize` with minimal capabilities,
 * document notifications, and waiting for diagnostics that reflect an edit — by push (a router
 * over `publishDiagnostics`) or by pull (`textDocument/diagnostic`, re-asked until it does).
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { fromLspDiagnostics, reflects, type DiagItem } from './diag-oracle.ts';
import type { DiagExpectation } from './generate-project.ts';
import { RawConnection } from './raw-connection.ts';
import type { ServerSpec } from './server-specs.ts';

/** Gives up on a diagnostics wait after this long (a hang is a benchmark failure, not a sample). */
export const WAIT_LIMIT_MS = 60_000;

/** @returns milliseconds, high resolution */
export const now = (): number => performance.now();

/**
 * @param path absolute path
 * @returns its file URI
 */
export const uriOf = (path: string): string => pathToFileURL(path).href;

const CAPABILITIES = {
  general: { positionEncodings: ['utf-16'] },
  textDocument: {
    synchronization: { dynamicRegistration: false },
    publishDiagnostics: { relatedInformation: true },
    diagnostic: { dynamicRegistration: false },
    completion: { completionItem: { snippetSupport: false } },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    signatureHelp: {},
    definition: {},
    references: {},
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor', 'source'] } } },
    formatting: {},
  },
  workspace: { configuration: true, workspaceFolders: true },
};

/**
 * Spawns the server and runs `initialize` → `initialized`.
 * @param spec the server
 * @param root project root
 * @returns the ready connection
 */
export async function startRawServer(spec: ServerSpec, root: string): Promise<RawConnection> {
  const conn = new RawConnection(spec.argv, root);
  const rootUri = uriOf(root);
  await conn.request('initialize', {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: 'bench' }],
    capabilities: CAPABILITIES,
    initializationOptions: spec.initializationOptions ?? {},
  });
  conn.notify('initialized', {});
  return conn;
}

interface PublishWaiter {
  path: string;
  accept(items: DiagItem[], raw: unknown[]): boolean;
}

/** Routes `publishDiagnostics` to waiters; remembers the latest list per file. */
export class PublishRouter {
  private readonly waiters = new Set<PublishWaiter>();
  private readonly latestRaw = new Map<string, unknown[]>();
  private readonly echoes = new Set<string>();
  /** Every publish received (after close echoes were dropped), in order. */
  readonly history: Array<{ path: string; at: number; items: DiagItem[] }> = [];

  /** @param conn the connection to listen on */
  constructor(conn: RawConnection) {
    conn.onNotification((method, params) => {
      if (method !== 'textDocument/publishDiagnostics') return;
      const p = params as { uri: string; diagnostics: unknown[] };
      const path = fileURLToPath(p.uri);
      if (p.diagnostics.length === 0 && this.echoes.delete(path)) return;
      this.latestRaw.set(path, p.diagnostics);
      const items = fromLspDiagnostics(p.diagnostics);
      this.history.push({ path, at: now(), items });
      for (const waiter of this.waiters) if (waiter.path === path && waiter.accept(items, p.diagnostics)) this.waiters.delete(waiter);
    });
  }

  /**
   * The next empty publish for `path` is the server clearing a closed document (ts-ls does
   * that synchronously on didClose, before it reads the next didOpen): drop it.
   * @param path absolute path just closed
   */
  expectCloseEcho(path: string): void {
    this.echoes.add(path);
  }

  /**
   * @param path absolute path
   * @returns the last published LSP diagnostics for it
   */
  latest(path: string): unknown[] {
    return this.latestRaw.get(path) ?? [];
  }

  /**
   * Register before sending what triggers the publish.
   * @param path absolute path
   * @param expect what the publish must show
   * @returns resolves at the first publish that reflects `expect`
   */
  waitFor(path: string, expect: DiagExpectation): Promise<void> {
    return withLimit(
      new Promise<void>((resolve) => {
        this.waiters.add({ path, accept: (items) => (reflects(items, expect) ? (resolve(), true) : false) });
      }),
      `publishDiagnostics for ${path}`,
    );
  }

  /**
   * The settle rule of earlier transient designs: take the last publish once none followed for
   * `settleMs`. Register before sending what triggers the publishes.
   * @param path absolute path
   * @param settleMs quiet time
   * @returns the settled list
   */
  waitSettled(path: string, settleMs: number): Promise<DiagItem[]> {
    return withLimit(
      new Promise<DiagItem[]>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        const waiter: PublishWaiter = {
          path,
          accept: (items) => {
            clearTimeout(timer);
            timer = setTimeout(() => {
              this.waiters.delete(waiter);
              resolve(items);
            }, settleMs);
            return false;
          },
        };
        this.waiters.add(waiter);
      }),
      `settled publishDiagnostics for ${path}`,
    );
  }
}

/**
 * Pulls until the report reflects `expect` (a pull answers for the current version; the loop
 * only guards against a server still loading its project).
 * @param conn the connection
 * @param path absolute path
 * @param expect what the report must show
 */
export async function pullUntil(conn: RawConnection, path: string, expect: DiagExpectation): Promise<void> {
  const deadline = now() + WAIT_LIMIT_MS;
  for (;;) {
    const report = await conn.request<{ items?: unknown[] } | null>('textDocument/diagnostic', { textDocument: { uri: uriOf(path) } });
    if (reflects(fromLspDiagnostics(report?.items ?? []), expect)) return;
    if (now() > deadline) throw new Error(`pull diagnostics for ${path} never reflected the edit`);
    await sleep(20);
  }
}

/**
 * @param conn the connection
 * @param path absolute path
 * @param version document version
 * @param text full text
 */
export function didOpen(conn: RawConnection, path: string, version: number, text: string): void {
  conn.notify('textDocument/didOpen', { textDocument: { uri: uriOf(path), languageId: 'typescript', version, text } });
}

/**
 * @param conn the connection
 * @param path absolute path
 */
export function didClose(conn: RawConnection, path: string): void {
  conn.notify('textDocument/didClose', { textDocument: { uri: uriOf(path) } });
}

async function withLimit<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing reflecting the edit within ${WAIT_LIMIT_MS} ms`)), WAIT_LIMIT_MS);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}
