/** Timing inside a page: from an act until a condition holds, as the page's own clock reads it. */
import type { Page } from '@playwright/test'

/** Milliseconds in the page from `act` until `done` holds, checked every frame. */
export function timed(page: Page, act: string, done: string): Promise<number> {
  return page.evaluate(
    ([act, done]) =>
      new Promise<number>((resolve, reject) => {
        const started = performance.now()
        new Function(act)()
        const check = () => {
          if (new Function(`return (${done})`)()) return resolve(performance.now() - started)
          if (performance.now() - started > 60_000) return reject(new Error(`never: ${done}`))
          requestAnimationFrame(check)
        }
        requestAnimationFrame(check)
      }),
    [act, done] as const,
  )
}
