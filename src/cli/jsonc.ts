/**
 * JSON with comments and trailing commas, as tsconfig.json and pyrightconfig.json are written.
 */

/**
 * @param text the file's text
 * @returns the parsed value
 * @throws SyntaxError when it is not JSON once comments and trailing commas are taken out
 */
export function parseJsonc(text: string): unknown {
  const stripped = text
    .replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_match, string: string | undefined) => string ?? '')
    .replace(/,(\s*[}\]])/g, '$1');
  return JSON.parse(stripped) as unknown;
}
