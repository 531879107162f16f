/**
 * The MCP SDK's transport types name the fetch API's global `HeadersInit`, which @types/node 22
 * does not declare (it keeps it in undici-types); this names it for the typecheck only.
 */
import type { HeadersInit as UndiciHeadersInit } from 'undici-types';

declare global {
  type HeadersInit = UndiciHeadersInit;
}
