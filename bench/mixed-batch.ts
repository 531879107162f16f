/**
 * The 8 mixed requests: each alone (sequentially, warm), then all 8 at once. Per round the
 * parallel wall time is compared with the slowest request alone and with the sum of all.
 */
import type { MixRequest } from './driver-types.ts';
import { now } from './raw-session.ts';

/** One round of the mixed batch. */
export interface MixRound {
  /** ms per request when run alone. */
  alone: Record<string, number>;
  /** ms until each request finished when all 8 were sent together. */
  inParallel: Record<string, number>;
  /** Wall time of the parallel batch. */
  wall: number;
}

async function timed(request: MixRequest): Promise<number> {
  const t0 = now();
  await request.run();
  return now() - t0;
}

/**
 * @param requests the batch (a fresh list per call is fine; positions stay valid)
 * @returns the round's timings
 */
export async function mixRound(requests: MixRequest[]): Promise<MixRound> {
  const alone: Record<string, number> = {};
  for (const request of requests) alone[request.name] = await timed(request);
  const inParallel: Record<string, number> = {};
  const t0 = now();
  await Promise.all(
    requests.map(async (request) => {
      await request.run();
      inParallel[request.name] = now() - t0;
    }),
  );
  return { alone, inParallel, wall: now() - t0 };
}

/**
 * Runs the batch once alone and once in parallel, untimed: opens documents, warms caches.
 * @param requests the batch
 */
export async function warmMix(requests: MixRequest[]): Promise<void> {
  for (const request of requests) await request.run();
  await Promise.all(requests.map((r) => r.run()));
}

/**
 * @param round a round
 * @returns the slowest request alone and the sum of all alone
 */
export function aloneStats(round: MixRound): { slowest: number; sum: number; slowestName: string } {
  let slowest = 0;
  let slowestName = '';
  let sum = 0;
  for (const [name, ms] of Object.entries(round.alone)) {
    sum += ms;
    if (ms > slowest) {
      slowest = ms;
      slowestName = name;
    }
  }
  return { slowest, sum, slowestName };
}
