/**
 * A TypeScript 7 program's listing from the language server that has just loaded it, instead of a
 * second `tsc --listFilesOnly` process parsing the same program beside it (decision 0114).
 *
 * TypeScript 7's server opens an API session on request (`custom/initializeAPISession`): a
 * JSON-RPC connection (LSP framing) on a Unix socket, over the same projects as the LSP session.
 * Its `getSourceFileNames` is the program's `GetSourceFiles()` — what `--listFilesOnly` prints —
 * and its `getConfigFileParsingDiagnostics`, `getProgramDiagnostics` and `getSyntacticDiagnostics`
 * are the three lists `tsc --listFilesOnly` prints before it stops (measured on 7.0.2: a JSON
 * syntax error and an unknown option in the config, an option TypeScript 7 removed, a syntax error
 * in a source file each appear in exactly one of them, as in the listing's output).
 *
 * Only a clean answer is used: when any of the three lists has an item, this returns undefined and
 * the caller runs the listing, which gives those diagnostics in the compiler's own words and
 * positions (the API's are UTF-8 offsets). Undefined too on any failure: a server without the
 * request, a socket that does not connect, a project the server did not load for this config.
 *
 * The socket lives in a private temporary directory this process creates (the server removes
 * whatever is at the path it is given and binds there), and is removed afterwards. The process is
 * one the CLI host started on its own machine (early-typescript-server.ts): the host may reach it
 * directly, as it watches files with node:fs.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createJsonRpcChannel, type EngineLog } from '../lsp/json-rpc-connection.ts';
import type { LanguageClient } from '../lsp/language-client.ts';
import { isObject } from '../lsp/normalize-common.ts';
import { raceAbort } from '../race-abort.ts';
import { listedProgramFile, type NativeListing } from './native-program-listing.ts';

/** Largest message accepted on the API socket (a file list of a large program is a few MB). */
const MAX_API_MESSAGE_BYTES = 64 * 1024 * 1024;

/** The API's three lists `tsc --listFilesOnly` prints before it stops. */
const EARLY_DIAGNOSTICS = ['getConfigFileParsingDiagnostics', 'getProgramDiagnostics', 'getSyntacticDiagnostics'] as const;

/**
 * @param client a ready TypeScript 7 server whose project for `configPath` is loaded
 * @param configPath the program's config (absolute)
 * @param options `signal` bounds the whole exchange; `log` gets why an answer was not used
 * @param options.signal cancels (then undefined)
 * @param options.log debug lines
 * @returns the program's files (those the compiler's listing keeps: {@link listedProgramFile}) and no diagnostics,
 *   or undefined: the program has early diagnostics, or the server could not say
 */
export async function listProgramFromServer(client: LanguageClient, configPath: string, options: { signal?: AbortSignal; log: EngineLog }): Promise<NativeListing | undefined> {
  const { signal, log } = options;
  const label = `${client.serverId} api`;
  // a Unix socket in a temporary directory; TypeScript 7 listens on a named pipe on Windows (not done: the listing runs)
  if (process.platform === 'win32') return undefined;
  let dir: string | undefined;
  let socket: Socket | undefined;
  let dispose: (() => void) | undefined;
  try {
    dir = mkdtempSync(join(tmpdir(), 'dsh-lsp-api-'));
    const pipe = join(dir, 'api.sock');
    const session = await client.request<unknown>('custom/initializeAPISession', { pipe }, signal);
    // only the socket this process placed: never one at a path the server chose
    if (!isObject(session) || session.pipe !== pipe) throw new Error('the server did not open the API session where it was asked to');
    socket = createConnection(pipe);
    await once(socket, 'connect', signal === undefined ? {} : { signal });
    const channel = createJsonRpcChannel({ stdout: socket, stdin: socket }, { maxMessageBytes: MAX_API_MESSAGE_BYTES, log, label });
    dispose = () => channel.dispose();
    // every request ends when the channel fails or the caller gives up
    const failed = new Promise<never>((_, reject) => channel.onFatal(reject));
    failed.catch(() => undefined);
    channel.connection.listen();
    const ask = <R>(method: string, params?: unknown): Promise<R> =>
      raceAbort(Promise.race([params === undefined ? channel.connection.sendRequest<R>(method) : channel.connection.sendRequest<R>(method, params), failed]), signal);
    await ask('initialize');
    const snapshot = await ask<unknown>('updateSnapshot', {});
    const project = isObject(snapshot) && Array.isArray(snapshot.projects) ? snapshot.projects.find((p) => isObject(p) && typeof p.configFileName === 'string' && resolve(p.configFileName) === resolve(configPath)) : undefined;
    if (!isObject(snapshot) || !isObject(project)) throw new Error(`no project of ${configPath} is loaded`);
    const at = { snapshot: snapshot.snapshot, project: project.id };
    const [names, ...early] = await Promise.all([ask<unknown>('getSourceFileNames', at), ...EARLY_DIAGNOSTICS.map((method) => ask<unknown>(method, at))]);
    if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) throw new Error('getSourceFileNames did not answer a list of names');
    // (the session's snapshots are released when the connection closes, below)
    // an empty list may come as null (a Go nil slice); anything else unexpected counts as said
    const said = early.reduce<number>((sum, list) => sum + (list === null ? 0 : Array.isArray(list) ? list.length : Number.POSITIVE_INFINITY), 0);
    if (said > 0) {
      log('debug', `${label}: ${configPath} has early diagnostics; the compiler's listing reports them`);
      return undefined;
    }
    const files = names.filter(listedProgramFile).map((name) => resolve(name));
    log('debug', `${label}: ${configPath} listed by the server (${files.length} files)`);
    return { files, diagnostics: [] };
  } catch (error) {
    log('debug', `${label}: no listing from the server (${(error as Error).message}); the compiler's listing is run`);
    return undefined;
  } finally {
    dispose?.();
    socket?.destroy();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}
