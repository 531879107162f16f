/**
 * The built-in actions, in catalog order: the four editor-protocol v1 actions first
 * (`diagnostics.get`, `completion.get`, `quickfix.apply`, `format`), then the additive ones.
 * Registering them in this order makes `lsp.actions.list` show v1 first.
 */
import type { ActionDefinition } from './action-definition.ts';
import { callHierarchyGetAction } from './call-hierarchy-get.ts';
import { codeActionApplyAction } from './code-action-apply.ts';
import { codeActionsListAction } from './code-actions-list.ts';
import { completionGetAction } from './completion-get.ts';
import { definitionGetAction } from './definition-get.ts';
import { diagnosticsGetAction } from './diagnostics-get.ts';
import { diagnosticsWorkspaceAction } from './diagnostics-workspace.ts';
import { formatEditsAction, renameEditsAction, renamePrepareAction } from './edits-for-editor.ts';
import { formatDocumentAction } from './format-document.ts';
import { hoverGetAction } from './hover-get.ts';
import { implementationGetAction } from './implementation-get.ts';
import { inlayHintsGetAction } from './inlay-hints-get.ts';
import { organizeImportsAction } from './organize-imports.ts';
import { quickfixApplyAction } from './quickfix-apply.ts';
import { referencesGetAction } from './references-get.ts';
import { renameSymbolAction } from './rename-symbol.ts';
import { signatureGetAction } from './signature-get.ts';
import { symbolsGetAction } from './symbols-get.ts';

/** Ids of the closed v1 catalog (`editor-protocol-v1.md`), in order. */
export const V1_ACTION_IDS: readonly string[] = ['diagnostics.get', 'completion.get', 'quickfix.apply', 'format'];

/** Every built-in action, v1 first, then the additive ones. */
export const BUILTIN_ACTIONS: ReadonlyArray<ActionDefinition> = [
  // editor protocol v1
  diagnosticsGetAction,
  completionGetAction,
  quickfixApplyAction,
  formatDocumentAction,
  // additive
  codeActionsListAction,
  codeActionApplyAction,
  renameSymbolAction,
  organizeImportsAction,
  symbolsGetAction,
  signatureGetAction,
  inlayHintsGetAction,
  hoverGetAction,
  definitionGetAction,
  referencesGetAction,
  diagnosticsWorkspaceAction,
  implementationGetAction,
  callHierarchyGetAction,

  formatEditsAction,
  renamePrepareAction,
  renameEditsAction,
];
