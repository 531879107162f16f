/**
 * Opt-in hover, go to definition, references and inlay hints from the backend's additive read
 * actions (`hover.get`, `definition.get`, `references.get`, `inlayHints.get`). Off by default:
 * VS Code's own language support usually shows these already and they would double up.
 */
import * as vscode from 'vscode';
import type { FolderBackend } from './folder-backend.ts';
import { absolutePath, fromPosition, fromRange, toPosition, toRange } from './wire-mapping.ts';
import type { WirePosition, WireRange } from './wire-types.ts';

type BackendFor = (uri: vscode.Uri) => FolderBackend | undefined;

interface Located {
  locations: { filePath: string; range: WireRange }[];
}

async function read<T>(backendFor: BackendFor, document: vscode.TextDocument, action: string, params: Record<string, unknown>): Promise<{ backend: FolderBackend; result: T } | undefined> {
  const backend = backendFor(document.uri);
  if (backend === undefined || backend.state !== 'ready') return undefined;
  const full: Record<string, unknown> = { ...params, filePath: backend.relativePath(document.uri) };
  if (document.isDirty) full['text'] = document.getText();
  try {
    const envelope = await backend.run<T>(action, full);
    return envelope.status === 'succeeded' && envelope.result !== undefined ? { backend, result: envelope.result } : undefined;
  } catch {
    return undefined;
  }
}

function toLocations(backend: FolderBackend, located: Located): vscode.Location[] {
  const root = backend.folder.uri.fsPath;
  return located.locations.map((l) => new vscode.Location(vscode.Uri.file(absolutePath(l.filePath, root)), toRange(vscode, l.range)));
}

/**
 * Registers the providers whose setting is on.
 * @param backendFor the backend serving a file
 * @returns the registrations
 */
export function registerNavigationProviders(backendFor: BackendFor): vscode.Disposable[] {
  const config = vscode.workspace.getConfiguration('dshLspActions');
  const selector: vscode.DocumentSelector = { scheme: 'file' };
  const out: vscode.Disposable[] = [];
  if (config.get<boolean>('hover.enabled', false)) {
    out.push(
      vscode.languages.registerHoverProvider(selector, {
        async provideHover(document, position) {
          const got = await read<{ found: boolean; contents: string; range?: WireRange }>(backendFor, document, 'hover.get', { position: fromPosition(position) });
          if (got === undefined || !got.result.found) return undefined;
          return new vscode.Hover(new vscode.MarkdownString(got.result.contents), got.result.range === undefined ? undefined : toRange(vscode, got.result.range));
        },
      }),
    );
  }
  if (config.get<boolean>('definition.enabled', false)) {
    out.push(
      vscode.languages.registerDefinitionProvider(selector, {
        async provideDefinition(document, position) {
          const got = await read<Located>(backendFor, document, 'definition.get', { position: fromPosition(position) });
          return got === undefined ? undefined : toLocations(got.backend, got.result);
        },
      }),
    );
  }
  if (config.get<boolean>('references.enabled', false)) {
    out.push(
      vscode.languages.registerReferenceProvider(selector, {
        async provideReferences(document, position, context) {
          const got = await read<Located>(backendFor, document, 'references.get', {
            position: fromPosition(position),
            includeDeclaration: context.includeDeclaration,
          });
          return got === undefined ? undefined : toLocations(got.backend, got.result);
        },
      }),
    );
  }
  if (config.get<boolean>('inlayHints.enabled', false)) {
    out.push(
      vscode.languages.registerInlayHintsProvider(selector, {
        async provideInlayHints(document, range) {
          const got = await read<{ hints: { position: WirePosition; label: string; kind?: number; paddingLeft?: boolean; paddingRight?: boolean }[] }>(
            backendFor,
            document,
            'inlayHints.get',
            { range: fromRange(range) },
          );
          if (got === undefined) return undefined;
          return got.result.hints.map((h) => {
            const hint = new vscode.InlayHint(toPosition(vscode, h.position), h.label, h.kind === 1 ? vscode.InlayHintKind.Type : h.kind === 2 ? vscode.InlayHintKind.Parameter : undefined);
            hint.paddingLeft = h.paddingLeft === true;
            hint.paddingRight = h.paddingRight === true;
            return hint;
          });
        },
      }),
    );
  }
  return out;
}
