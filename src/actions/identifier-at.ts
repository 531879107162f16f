/**
 * Position tolerance for navigation (issue 22): models give line and column slightly wrong. A
 * position on an identifier is used as given; one that is not (whitespace, punctuation, a
 * keyword, past the line's end) snaps to the nearest identifier on the same line, and the result
 * says which one was used. No identifier on the line, or two at the same distance, is an error
 * that lists the candidates — never a silent answer about something else. Pure; positions are
 * zero-based UTF-16.
 */
import { ActionError } from '../errors.ts';
import type { Position } from '../lsp/engine-types.ts';

/** An identifier on one line: `[start, end)` columns. */
export interface IdentifierSpan {
  name: string;
  line: number;
  start: number;
  end: number;
}

/** Where a navigation request was asked, after snapping. */
export interface SnappedPosition {
  position: Position;
  /** The identifier asked about (undefined when the position was not on one and none was needed). */
  name: string;
  /** Set when the given position was moved: what was used instead, and why. */
  note?: string;
}

const IDENTIFIER = /[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}_$]*/gu;

/**
 * Words that are never what a navigation request means (TypeScript/JavaScript and Python
 * keywords): a position on one snaps to the nearest real name on the line.
 */
const KEYWORDS = new Set([
  'abstract', 'as', 'async', 'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'declare',
  'default', 'delete', 'do', 'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'from', 'function', 'get',
  'if', 'implements', 'import', 'in', 'instanceof', 'interface', 'is', 'keyof', 'let', 'new', 'null', 'of', 'private',
  'protected', 'public', 'readonly', 'return', 'set', 'static', 'super', 'switch', 'this', 'throw', 'true', 'try',
  'type', 'typeof', 'undefined', 'var', 'void', 'while', 'with', 'yield',
  'and', 'assert', 'def', 'del', 'elif', 'except', 'False', 'global', 'lambda', 'None', 'nonlocal', 'not', 'or',
  'pass', 'raise', 'True',
]);

/**
 * @param name a word
 * @returns whether it is a keyword navigation never means
 */
export function isKeyword(name: string): boolean {
  return KEYWORDS.has(name);
}

/**
 * @param text a line's text (no line break)
 * @param line its zero-based number
 * @returns every identifier-like word on it, keywords included, in column order
 */
export function identifiersOnLine(text: string, line: number): IdentifierSpan[] {
  const out: IdentifierSpan[] = [];
  for (const match of text.matchAll(IDENTIFIER)) {
    out.push({ name: match[0], line, start: match.index, end: match.index + match[0].length });
  }
  return out;
}

/**
 * @param text a whole document
 * @returns its lines without line breaks (`\r\n`, `\n`, `\r`)
 */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\n|\r/);
}

const oneBased = (line: number, character: number): string => `${line + 1}:${character + 1}`;

/**
 * @param lines the document's lines
 * @param line zero-based line with no usable identifier
 * @param max how many to list
 * @returns names on the nearest lines that have some, nearest first
 */
function nearbyCandidates(lines: readonly string[], line: number, max: number): IdentifierSpan[] {
  const out: IdentifierSpan[] = [];
  for (let distance = 1; distance <= 3 && out.length < max; distance++) {
    for (const l of [line - distance, line + distance]) {
      if (l < 0 || l >= lines.length) continue;
      out.push(...identifiersOnLine(lines[l] ?? '', l).filter((s) => !isKeyword(s.name)));
    }
  }
  return out.slice(0, max);
}

/**
 * @param spans candidates
 * @returns `name` at one-based `line:col`, for messages
 */
export function describeCandidates(spans: readonly IdentifierSpan[]): string {
  return spans.map((s) => `${s.name} at ${oneBased(s.line, s.start)}`).join(', ');
}

/**
 * @param text the document as the server sees it
 * @param position the requested zero-based position
 * @returns the position to ask at, the identifier there, and a note when it was moved
 * @throws ActionError `LSP_ACTION_NO_SYMBOL` (details `candidates`, zero-based) when the line is past
 *   the end, has no identifier, or has two at the same distance
 */
export function snapToIdentifier(text: string, position: Position): SnappedPosition {
  const lines = splitLines(text);
  const asked = oneBased(position.line, position.character);
  if (position.line >= lines.length) {
    throw new ActionError('LSP_ACTION_NO_SYMBOL', `line ${position.line + 1} is past the end of the file (${lines.length} lines); positions are one-based`, {
      candidates: [],
    });
  }
  const spans = identifiersOnLine(lines[position.line] ?? '', position.line);
  const here = spans.find((s) => s.start <= position.character && position.character < s.end);
  if (here !== undefined && !isKeyword(here.name)) return { position, name: here.name };
  const usable = spans.filter((s) => !isKeyword(s.name));
  if (usable.length === 0) {
    const nearby = nearbyCandidates(lines, position.line, 8);
    const list = nearby.length > 0 ? ` Names on nearby lines: ${describeCandidates(nearby)}.` : '';
    throw new ActionError('LSP_ACTION_NO_SYMBOL', `there is no name on line ${position.line + 1} (asked at ${asked}, one-based).${list} Give a line and column on the name, or name the symbol.`, {
      candidates: nearby.map(toCandidate),
    });
  }
  const distance = (s: IdentifierSpan): number =>
    position.character < s.start ? s.start - position.character : Math.max(0, position.character - (s.end - 1));
  const best = Math.min(...usable.map(distance));
  const nearest = usable.filter((s) => distance(s) === best);
  if (nearest.length > 1) {
    throw new ActionError('LSP_ACTION_NO_SYMBOL', `${asked} (one-based) is not on a name, and ${describeCandidates(nearest)} are equally near. Give the column of the one you mean, or name the symbol.`, {
      candidates: nearest.map(toCandidate),
    });
  }
  const used = nearest[0] as IdentifierSpan;
  const why = here !== undefined ? `is on the keyword \`${here.name}\`` : 'is not on a name';
  return {
    position: { line: used.line, character: used.start },
    name: used.name,
    note: `${asked} ${why}; used \`${used.name}\` at ${oneBased(used.line, used.start)}, the nearest name on that line`,
  };
}

/**
 * @param span an identifier
 * @returns the wire candidate (zero-based)
 */
function toCandidate(span: IdentifierSpan): { name: string; position: Position } {
  return { name: span.name, position: { line: span.line, character: span.start } };
}
