/**
 * Long work done in steps: the parser and the compiler are generators that stop every so often
 * (`yield`), so that whoever runs them can give the event loop a turn, check a time limit, or
 * stop, between two steps. Their recursion follows only the nesting the language bounds
 * (brackets, blocks, parentheses); chains of any length are walked in loops.
 */
export type Steps<T> = Generator<void, T, void>

/** How much work (tokens read, values written) goes between two steps. */
export const STEP_WORK = 256

/** Runs every step at once: for callers that have no one else to give turns to. */
export function finish<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next()
    if (next.done) return next.value
  }
}

/**
 * Runs the steps, asking `between` after each whether to wait (a turn of the event loop, or
 * another account's) before the next; `between` may throw to stop (the time limit).
 */
export async function drive<T>(
  steps: Steps<T>,
  between: () => Promise<void> | undefined,
): Promise<T> {
  for (;;) {
    const next = steps.next()
    if (next.done) return next.value
    const wait = between()
    if (wait) await wait
  }
}
