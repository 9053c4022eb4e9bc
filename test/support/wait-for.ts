/** Real time passes (loopback I/O, real timers) until `done` holds; the bound only guards a condition that never comes (generous: a starved CI machine stalls for seconds). */
export async function waitFor(done: () => boolean, what: string, limitMs = 30_000): Promise<void> {
  const giveUpAt = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() > giveUpAt) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
