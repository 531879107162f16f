/**
 * LSP `Diagnostic`s → {@link EngineDiagnostic}s tagged with their server.
 */
import type { ActionError } from '../errors.ts';
import type { DiagnosticsStrategy } from './diagnostics-strategy.ts';
import type { DiagnosticSeverity, EngineDiagnostic, FileLocation, Freshness, Position, Range, ServerDiagnostics } from './engine-types.ts';
import { isObject, malformed, optString, readLocation, readRange, type NormalizeContext } from './normalize-common.ts';

const SEVERITIES: Record<number, DiagnosticSeverity> = { 1: 'error', 2: 'warning', 3: 'information', 4: 'hint' };

/**
 * @param ctx normaliser context
 * @param raw one LSP Diagnostic
 * @param path the document it is about
 * @param what where it was (for errors)
 * @returns the engine diagnostic; a missing severity counts as an error (as editors do)
 */
export function normalizeDiagnostic(ctx: NormalizeContext, raw: unknown, path: string, what = 'diagnostic'): EngineDiagnostic {
  if (!isObject(raw)) throw malformed(ctx, `${what} is not a Diagnostic`);
  if (typeof raw.message !== 'string') throw malformed(ctx, `${what}.message is not a string`);
  const out: EngineDiagnostic = {
    serverId: ctx.serverId,
    range: readRange(ctx, raw.range, path, `${what}.range`),
    severity: SEVERITIES[typeof raw.severity === 'number' ? raw.severity : 1] ?? 'error',
    message: raw.message,
  };
  const source = optString(raw.source);
  if (source !== undefined) out.source = source;
  if (typeof raw.code === 'string' || typeof raw.code === 'number') out.code = raw.code;
  if (Array.isArray(raw.tags)) {
    const tags = raw.tags.filter((t): t is number => typeof t === 'number');
    if (tags.length > 0) out.tags = tags;
  }
  if (Array.isArray(raw.relatedInformation)) {
    const related: Array<{ location: FileLocation; message: string }> = [];
    raw.relatedInformation.forEach((info, i) => {
      if (!isObject(info)) return;
      const location = readLocation(ctx, info.location, `${what}.relatedInformation[${i}].location`);
      if (location !== undefined) related.push({ location, message: optString(info.message) ?? '' });
    });
    if (related.length > 0) out.relatedInformation = related;
  }
  return out;
}

/**
 * @param ctx normaliser context
 * @param raw a Diagnostic[] (publish params, a full pull report's `items`)
 * @param path the document
 * @param what where it was
 * @returns engine diagnostics
 */
export function normalizeDiagnostics(ctx: NormalizeContext, raw: unknown, path: string, what = 'diagnostics'): EngineDiagnostic[] {
  if (!Array.isArray(raw)) throw malformed(ctx, `${what} is not an array`);
  return raw.map((d, i) => normalizeDiagnostic(ctx, d, path, `${what}[${i}]`));
}

const SEVERITY_RANK: Record<DiagnosticSeverity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

/**
 * Sorts by position, then severity (errors first), then server id — the merged order.
 * @param diagnostics any diagnostics
 * @returns a new sorted array
 */
export function sortDiagnostics(diagnostics: readonly EngineDiagnostic[]): EngineDiagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character ||
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      a.serverId.localeCompare(b.serverId),
  );
}

const isBefore = (a: Position, b: Position): boolean => a.line < b.line || (a.line === b.line && a.character < b.character);

/**
 * @param raw a server's own Diagnostic objects (as it sent them)
 * @param range a range in the same encoding
 * @param where where a raw position points, for the comparison (default: as sent)
 * @returns those whose range touches `range` (boundaries included), unchanged
 */
export function overlappingDiagnostics(raw: readonly unknown[], range: Range, where: (position: Position) => Position = (p) => p): unknown[] {
  return raw.filter((d) => {
    const r = isObject(d) ? d.range : undefined;
    if (!isObject(r) || !isObject(r.start) || !isObject(r.end)) return false;
    const start = where(r.start as unknown as Position);
    const end = where(r.end as unknown as Position);
    return !isBefore(end, range.start) && !isBefore(range.end, start);
  });
}

/**
 * @param r the parts of one server's answer
 * @param r.serverId the server
 * @param r.mode pull or push
 * @param r.strategy how the server's diagnostics were obtained
 * @param r.state freshness
 * @param r.version the version asked about
 * @param r.items its diagnostics (copied)
 * @param r.analysedVersion the version they were computed for, when known
 * @param r.error why the server failed, when it did
 * @returns the {@link ServerDiagnostics}
 */
export function serverDiagnostics(r: {
  serverId: string;
  mode: 'pull' | 'push';
  strategy?: DiagnosticsStrategy | undefined;
  state: Freshness;
  version: number;
  items: readonly EngineDiagnostic[];
  analysedVersion?: number | undefined;
  error?: ActionError | undefined;
}): ServerDiagnostics {
  const out: ServerDiagnostics = { serverId: r.serverId, mode: r.mode, state: r.state, version: r.version, diagnostics: [...r.items] };
  if (r.strategy !== undefined) out.strategy = r.strategy;
  if (r.analysedVersion !== undefined) out.analysedVersion = r.analysedVersion;
  if (r.error !== undefined) out.error = { code: r.error.code, message: r.error.message };
  return out;
}
