const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

/** Runs `work` for the benchmark's seconds and answers runs per second. */
export async function perSecond(work: () => Promise<unknown> | unknown): Promise<number> {
  let runs = 0;
  const started = performance.now();
  const until = started + SECONDS * 1000;
  while (performance.now() < until) {
    await work();
    runs++;
  }
  return runs / ((performance.now() - started) / 1000);
}
