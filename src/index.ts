export const name = "dsh-lsp-actions";
