// Waiting without a clock assertion: poll a condition until it holds or a generous deadline passes (the deadline
// only turns a hang into a named failure; it never judges speed). Timing targets live in `npm run bench`.

/** Polls `ok` every `everyMs` until it is true; throws naming `what` after `ms` (default 20 s). */
export async function until(ok: () => boolean | Promise<boolean>, what: string, ms = 20_000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`gave up after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
