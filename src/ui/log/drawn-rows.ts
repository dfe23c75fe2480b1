import { startTransition, useEffect, useState } from 'react'

/** Rows the list draws at once, and adds with each "Show more". */
export const ROWS_AT_ONCE = 200

/** Rows the view's first rows draw: more than the tallest window shows above the fold. */
export const FIRST_PAINT_ROWS = 40

/**
 * How many of the matches the list draws: `ROWS_AT_ONCE`, and that many more with each
 * `more()`. The view's first rows draw only the first `FIRST_PAINT_ROWS` of them, so that they
 * are on screen before React has made the rest, which follow at once in a transition (work
 * React splits and a person's input interrupts). `hasRows`: there is something to draw.
 */
export function useDrawnRows(hasRows: boolean) {
  const [drawn, setDrawn] = useState(ROWS_AT_ONCE)
  const [painted, setPainted] = useState(false)
  useEffect(() => {
    if (hasRows && !painted) startTransition(() => setPainted(true))
  }, [hasRows, painted])
  return {
    drawn: painted ? drawn : Math.min(drawn, FIRST_PAINT_ROWS),
    /** Whether every row of `drawn` has been drawn since the first rows. */
    complete: painted,
    more: () => setDrawn((count) => count + ROWS_AT_ONCE),
  }
}
