/**
 * What the engine tells servers it supports in `initialize` — only what it really handles.
 */
import { basename } from 'node:path';
import type { ClientCapabilities, CompletionItemKind, InitializeParams, SymbolKind } from 'vscode-languageserver-protocol';
import { URI } from 'vscode-uri';
import { SUPPORTED_POSITION_ENCODINGS } from '../documents/position-encoding.ts';

const SYMBOL_KINDS = Array.from({ length: 26 }, (_, i) => i + 1) as SymbolKind[];
const COMPLETION_KINDS = Array.from({ length: 25 }, (_, i) => i + 1) as CompletionItemKind[];
const CODE_ACTION_KINDS = [
  '',
  'quickfix',
  'refactor',
  'refactor.extract',
  'refactor.inline',
  'refactor.rewrite',
  'source',
  'source.organizeImports',
  'source.fixAll',
];

/**
 * Position encodings are offered utf-8 first: servers written in Go/Rust (TypeScript 7,
 * rust-analyzer, ruff, Biome) then avoid their own conversion, and our conversion path is
 * exercised by real servers, not only by fakes. Every server must also accept utf-16.
 * @returns the client capabilities sent in every `initialize`
 */
export function buildClientCapabilities(): ClientCapabilities {
  return {
    general: {
      positionEncodings: [...SUPPORTED_POSITION_ENCODINGS],
      staleRequestSupport: { cancel: true, retryOnContentModified: [] },
      markdown: { parser: 'marked', version: '1.1.0' },
    },
    window: { workDoneProgress: true, showMessage: {}, showDocument: { support: false } },
    workspace: {
      applyEdit: true,
      workspaceEdit: {
        documentChanges: true,
        resourceOperations: ['create', 'rename', 'delete'],
        failureHandling: 'abort',
        normalizesLineEndings: false,
        changeAnnotationSupport: { groupsOnLabel: false },
      },
      didChangeConfiguration: { dynamicRegistration: true },
      didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
      symbol: { dynamicRegistration: true, symbolKind: { valueSet: SYMBOL_KINDS } },
      executeCommand: { dynamicRegistration: true },
      workspaceFolders: true,
      configuration: true,
      diagnostics: { refreshSupport: true },
    },
    textDocument: {
      synchronization: { dynamicRegistration: true, didSave: false, willSave: false, willSaveWaitUntil: false },
      publishDiagnostics: {
        relatedInformation: true,
        versionSupport: true,
        tagSupport: { valueSet: [1, 2] },
        codeDescriptionSupport: true,
        dataSupport: true,
      },
      diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
      completion: {
        dynamicRegistration: true,
        contextSupport: true,
        completionItem: {
          snippetSupport: false,
          documentationFormat: ['markdown', 'plaintext'],
          deprecatedSupport: true,
          preselectSupport: true,
          insertReplaceSupport: true,
          labelDetailsSupport: true,
          resolveSupport: { properties: ['documentation', 'detail'] },
        },
        completionItemKind: { valueSet: COMPLETION_KINDS },
        completionList: { itemDefaults: ['editRange', 'insertTextFormat', 'data'] },
      },
      hover: { dynamicRegistration: true, contentFormat: ['markdown', 'plaintext'] },
      signatureHelp: {
        dynamicRegistration: true,
        signatureInformation: {
          documentationFormat: ['markdown', 'plaintext'],
          parameterInformation: { labelOffsetSupport: true },
          activeParameterSupport: true,
        },
        contextSupport: true,
      },
      definition: { dynamicRegistration: true, linkSupport: true },
      references: { dynamicRegistration: true },
      implementation: { dynamicRegistration: true, linkSupport: true },
      callHierarchy: { dynamicRegistration: true },
      documentSymbol: {
        dynamicRegistration: true,
        hierarchicalDocumentSymbolSupport: true,
        symbolKind: { valueSet: SYMBOL_KINDS },
        labelSupport: true,
      },
      codeAction: {
        dynamicRegistration: true,
        isPreferredSupport: true,
        disabledSupport: true,
        dataSupport: true,
        resolveSupport: { properties: ['edit'] },
        codeActionLiteralSupport: { codeActionKind: { valueSet: CODE_ACTION_KINDS } },
        honorsChangeAnnotations: false,
      },
      formatting: { dynamicRegistration: true },
      rangeFormatting: { dynamicRegistration: true },
      rename: { dynamicRegistration: true, prepareSupport: true, honorsChangeAnnotations: false },
      inlayHint: { dynamicRegistration: true },
    },
  };
}

/**
 * @param root the server's root directory (rootUri and the one workspace folder)
 * @param initializationOptions the server entry's `initializationOptions`
 * @returns the `initialize` params
 */
export function buildInitializeParams(root: string, initializationOptions: Record<string, unknown> | undefined): InitializeParams {
  const rootUri = URI.file(root).toString();
  return {
    processId: process.pid,
    clientInfo: { name: 'dsh-lsp-actions' },
    locale: 'en',
    rootPath: root,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: basename(root) }],
    capabilities: buildClientCapabilities(),
    initializationOptions,
    trace: 'off',
  };
}
