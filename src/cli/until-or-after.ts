/**
 * A bounded wait for work that may take long: `check` gives its early steps a head start before
 * the boot, but never lets them hold the run back more than a set time.
 */

/**
 * @param work what to wait for (its rejection counts as settling)
 * @param ms the longest wait
 * @returns after `work` settles (true) or `ms` pass (false), whichever is first (the timer never holds the process)
 */
export async function untilOrAfter(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<boolean>((settle) => {
    timer = setTimeout(() => settle(false), ms);
    timer.unref();
  });
  const settled = await Promise.race([work.then(() => true, () => true), cap]);
  clearTimeout(timer);
  return settled;
}
