/**
 * Runs `work` once the page has painted its next frame (the first screen, when called as it
 * renders), or after `atMostMs` if no frame comes (a tab in the background paints none);
 * answers a function that cancels it.
 */
export function afterPaint(work: () => void, atMostMs: number): () => void {
  let done = false
  const run = () => {
    if (done) return
    done = true
    cancel()
    work()
  }
  // A frame's callbacks run before it is painted: the task after them runs once it has been.
  let after: ReturnType<typeof setTimeout> | undefined
  const frame =
    typeof requestAnimationFrame === 'function'
      ? requestAnimationFrame(() => (after = setTimeout(run, 0)))
      : undefined
  const latest = setTimeout(run, atMostMs)
  function cancel() {
    if (frame !== undefined) cancelAnimationFrame(frame)
    clearTimeout(after)
    clearTimeout(latest)
  }
  return () => {
    done = true
    cancel()
  }
}
