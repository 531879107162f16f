/**
 * The `instructions` an MCP client may add to its model's context at `initialize`: how to read
 * the tools' answers. Short; each tool's own description says the rest.
 */

/** Sent once, in the `initialize` result. */
export const MCP_INSTRUCTIONS = [
  'Language-server tools over warm servers (one per language and project, started on first use).',
  'Diagnostics say per file whether they are fresh (for the file as it is on disk now), pending (analysis not finished: not a clean result) or stale; never read pending as "no problems".',
  'Paths are relative to the workspace or absolute; lines and characters are one-based.',
  'After editing files with your own tools, call lsp_edit_feedback: it reports what the edits broke or fixed, across files.',
  'Write tools (lsp_format, lsp_rename, lsp_organize_imports, lsp_code_action with title or index) change every file or none; they are refused when the server was started read-only.',
].join('\n');
