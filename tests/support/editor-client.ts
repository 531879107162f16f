/**
 * A minimal editor client of `lsp-actions/v1`, written from the spec alone: it spawns
 * `dsh-lsp-actions serve` as a child process, writes one JSON object per line, and reads
 * responses and `lsp.event` notifications line by line — what an editor extension does.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

/** Absolute path of the built command line. */
export const CLI_MAIN = join(import.meta.dirname, '..', '..', 'lib', 'cli', 'main.js');

/** A JSON-RPC frame as received. */
export type Frame = Record<string, any>;

/** A spawned backend and the conversation with it. */
export interface EditorClient {
  child: ChildProcessWithoutNullStreams;
  /** Every `lsp.event` params received so far, in order. */
  events: Frame[];
  /** Every stdout line that was not valid JSON (must stay empty: stdout is frames only). */
  junk: string[];
  stderr(): string;
  /** Sends a request with a string id (as the VS Code client does) and awaits its response. */
  request(method: string, params: unknown, timeoutMs?: number): Promise<Frame>;
  /** Sends a notification. */
  notify(method: string, params: unknown): void;
  /** `lsp.actions.run` → the envelope. */
  run(action: string, params: Record<string, unknown>, requestId?: string): Promise<Frame>;
  /** Ends stdin and resolves with the exit code. */
  close(): Promise<number | null>;
}

/**
 * @param args arguments after `serve`
 * @param nodeArgs Node flags for the backend process (e.g. an `--import` preload)
 * @returns a connected client
 */
export function startEditorClient(args: string[], nodeArgs: string[] = []): EditorClient {
  const child = spawn(process.execPath, [...nodeArgs, CLI_MAIN, 'serve', ...args], {
    env: { ...process.env, PATH: `${join(process.execPath, '..')}:${process.env['PATH'] ?? ''}` },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const events: Frame[] = [];
  const junk: string[] = [];
  const waiting = new Map<string, (frame: Frame) => void>();
  let stderr = '';
  let buffer = '';
  let nextId = 1;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      let frame: Frame;
      try {
        frame = JSON.parse(line) as Frame;
      } catch {
        junk.push(line);
        continue;
      }
      if (frame['method'] === 'lsp.event') events.push(frame['params'] as Frame);
      else if (typeof frame['id'] === 'string') waiting.get(frame['id'])?.(frame);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const send = (message: unknown): void => {
    child.stdin.write(`${JSON.stringify(message)}\n`);
  };
  const client: EditorClient = {
    child,
    events,
    junk,
    stderr: () => stderr,
    request(method, params, timeoutMs = 120_000) {
      const id = String(nextId++);
      return new Promise<Frame>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to ${method} #${id}; stderr:\n${stderr}`)), timeoutMs);
        waiting.set(id, (frame) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(frame);
        });
        send({ jsonrpc: '2.0', id, method, params });
      });
    },
    notify(method, params) {
      send({ jsonrpc: '2.0', method, params });
    },
    async run(action, params, requestId) {
      const frame = await client.request('lsp.actions.run', { action, params, ...(requestId ? { requestId } : {}) });
      return frame['result'] as Frame;
    },
    close() {
      child.stdin.end();
      return exited;
    },
  };
  return client;
}
