/**
 * `serve`'s watch on the process that started it, so that a launcher's signal that never
 * reaches it still stops it.
 */

/**
 * How often `serve` looks whether the process that started it is still there: a launcher such
 * as `npx` passes a signal to the shell it runs `serve` in, which dies without passing it on.
 */
const PARENT_WATCH_MS = 250

/**
 * Calls `gone` once the process that started this one has ended (this one is then adopted by
 * another), so that `npx service-playground serve & kill $!` leaves no server listening. Only
 * when npm started it (`npx`, `npm exec`, `npm run`: npm says so in `npm_command`), whose shell
 * dies of a signal without passing it on; started any other way (`nohup … &`, a process
 * manager, a container's entry point), `serve` ends only when it is signalled itself.
 */
export function watchParent(gone: () => void): void {
  const parent = process.ppid
  if (parent <= 1 || process.env.npm_command === undefined) return
  const timer = setInterval(() => {
    if (process.ppid === parent) return
    clearInterval(timer)
    gone()
  }, PARENT_WATCH_MS)
  timer.unref()
}
