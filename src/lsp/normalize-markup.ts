/**
 * Text-bearing answers: hover (`MarkupContent`, `MarkedString`, `MarkedString[]`), signature
 * help and inlay hints, flattened to strings.
 */
import type { HoverResult, InlayHintInfo, SignatureHelpResult, SignatureInfo } from './engine-types.ts';
import { isObject, malformed, optNumber, readArray, readPosition, readRange, type NormalizeContext } from './normalize-common.ts';

/**
 * @param raw MarkupContent, MarkedString (string or `{language, value}`) or an array of those
 * @returns markdown/plain text; a `{language, value}` becomes a fenced block; arrays join with blank lines
 */
export function flattenMarkup(raw: unknown): string {
  if (typeof raw === 'string') return raw;
  if (Array.isArray(raw)) return raw.map(flattenMarkup).filter((s) => s !== '').join('\n\n');
  if (isObject(raw) && typeof raw.value === 'string') {
    if (typeof raw.language === 'string') return `\`\`\`${raw.language}\n${raw.value}\n\`\`\``;
    return raw.value;
  }
  return '';
}

/**
 * @param ctx normaliser context
 * @param raw the `textDocument/hover` answer
 * @param path the document
 * @returns the hover, or `null` when there is none (or it is empty)
 */
export function normalizeHover(ctx: NormalizeContext, raw: unknown, path: string): HoverResult | null {
  if (raw === null || raw === undefined) return null;
  if (!isObject(raw) || !('contents' in raw)) throw malformed(ctx, 'hover is not a Hover');
  const contents = flattenMarkup(raw.contents);
  if (contents.trim() === '') return null;
  const out: HoverResult = { serverId: ctx.serverId, contents };
  if (raw.range !== undefined && raw.range !== null) out.range = readRange(ctx, raw.range, path, 'hover.range');
  return out;
}

function documentation(raw: unknown): string | undefined {
  const text = flattenMarkup(raw);
  return text === '' ? undefined : text;
}

/**
 * @param ctx normaliser context
 * @param raw the `textDocument/signatureHelp` answer
 * @returns signature help, or `null`
 */
export function normalizeSignatureHelp(ctx: NormalizeContext, raw: unknown): SignatureHelpResult | null {
  if (raw === null || raw === undefined) return null;
  if (!isObject(raw)) throw malformed(ctx, 'signatureHelp is not a SignatureHelp');
  const signatures: SignatureInfo[] = readArray(ctx, raw.signatures, 'signatureHelp.signatures').map((sig, i) => {
    if (!isObject(sig) || typeof sig.label !== 'string') throw malformed(ctx, `signatureHelp.signatures[${i}] has no label`);
    const label = sig.label;
    const info: SignatureInfo = {
      label,
      parameters: (Array.isArray(sig.parameters) ? sig.parameters : []).map((p) => {
        const param = isObject(p) ? p : {};
        const range = param.label;
        const text = Array.isArray(range) && typeof range[0] === 'number' && typeof range[1] === 'number' ? label.slice(range[0], range[1]) : String(range ?? '');
        const doc = documentation(param.documentation);
        return doc === undefined ? { label: text } : { label: text, documentation: doc };
      }),
    };
    const doc = documentation(sig.documentation);
    if (doc !== undefined) info.documentation = doc;
    const active = optNumber(sig.activeParameter);
    if (active !== undefined) info.activeParameter = active;
    return info;
  });
  return {
    serverId: ctx.serverId,
    signatures,
    activeSignature: optNumber(raw.activeSignature) ?? 0,
    activeParameter: optNumber(raw.activeParameter) ?? 0,
  };
}

/**
 * @param ctx normaliser context
 * @param raw the `textDocument/inlayHint` answer
 * @param path the document
 * @returns hints (label parts joined)
 */
export function normalizeInlayHints(ctx: NormalizeContext, raw: unknown, path: string): InlayHintInfo[] {
  return readArray(ctx, raw, 'inlayHint result').map((hint, i) => {
    if (!isObject(hint)) throw malformed(ctx, `inlayHint[${i}] is not an InlayHint`);
    const label = Array.isArray(hint.label)
      ? hint.label.map((part) => (isObject(part) && typeof part.value === 'string' ? part.value : '')).join('')
      : typeof hint.label === 'string'
        ? hint.label
        : undefined;
    if (label === undefined) throw malformed(ctx, `inlayHint[${i}].label is not a string or label parts`);
    const out: InlayHintInfo = { position: readPosition(ctx, hint.position, path, `inlayHint[${i}].position`), label };
    const kind = optNumber(hint.kind);
    if (kind !== undefined) out.kind = kind;
    if (typeof hint.paddingLeft === 'boolean') out.paddingLeft = hint.paddingLeft;
    if (typeof hint.paddingRight === 'boolean') out.paddingRight = hint.paddingRight;
    return out;
  });
}
