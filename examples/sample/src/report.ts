// Two known errors: a type mismatch (line 6) and a misspelled identifier (line 7).
import type { Point } from './geometry.js';

/** A one-line description of a point. */
export function describe(point: Point): string {
  const label: string = point.x;
  return `${label}, ${pointt.y}`;
}
