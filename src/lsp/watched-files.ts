/**
 * `workspace/didChangeWatchedFiles` for files the engine does not have open: which changes a
 * server asked to hear about (its registered watchers), or all changes under its root when it
 * registered none.
 */
import picomatch from 'picomatch';
import type { FileEvent } from 'vscode-languageserver-protocol';
import { URI } from 'vscode-uri';
import type { CapabilityRegistry } from './capability-registry.ts';
import { isObject, uriToPath } from './normalize-common.ts';
import { workspaceRelative } from './server-routing.ts';

/** A change to announce. */
export interface FileChange {
  path: string;
  kind: 'created' | 'changed' | 'deleted';
}

const TYPE = { created: 1, changed: 2, deleted: 3 } as const;
const KIND_BIT = { created: 1, changed: 2, deleted: 4 } as const;

interface Watcher {
  base: string | undefined;
  test: (path: string) => boolean;
  kinds: number;
}

function watchers(registry: CapabilityRegistry): Watcher[] {
  const out: Watcher[] = [];
  for (const registration of registry.registrations('workspace/didChangeWatchedFiles')) {
    const list = isObject(registration.registerOptions) ? registration.registerOptions.watchers : undefined;
    if (!Array.isArray(list)) continue;
    for (const watcher of list) {
      if (!isObject(watcher)) continue;
      const glob = watcher.globPattern;
      const kinds = typeof watcher.kind === 'number' ? watcher.kind : 7;
      if (typeof glob === 'string') {
        out.push({ base: undefined, test: picomatch(glob, { dot: true }), kinds });
      } else if (isObject(glob) && typeof glob.pattern === 'string') {
        const baseUri = isObject(glob.baseUri) ? glob.baseUri.uri : glob.baseUri;
        out.push({ base: uriToPath(baseUri), test: picomatch(glob.pattern, { dot: true }), kinds });
      }
    }
  }
  return out;
}

/**
 * @param registry the server's capabilities (its watcher registrations)
 * @param root the server's root
 * @param changes changes to files not open on that server
 * @returns the file events to send (empty: send nothing)
 */
export function watchedFileEvents(registry: CapabilityRegistry, root: string, changes: readonly FileChange[]): FileEvent[] {
  const list = watchers(registry);
  const events: FileEvent[] = [];
  for (const change of changes) {
    const rel = workspaceRelative(change.path, root);
    if (rel === undefined) continue;
    const wanted =
      list.length === 0 ||
      list.some((w) => {
        if ((w.kinds & KIND_BIT[change.kind]) === 0) return false;
        if (w.base !== undefined) {
          const fromBase = workspaceRelative(change.path, w.base);
          return fromBase !== undefined && w.test(fromBase);
        }
        return w.test(rel) || w.test(change.path);
      });
    if (wanted) events.push({ uri: URI.file(change.path).toString(), type: TYPE[change.kind] });
  }
  return events;
}
