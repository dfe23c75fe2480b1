import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { FIRST_PAINT_ROWS, ROWS_AT_ONCE, useDrawnRows } from './drawn-rows'

/** Draws `useDrawnRows`'s count, noting each one committed to the page. */
function Rows({ hasRows, committed }: { hasRows: boolean; committed: number[] }) {
  const { drawn, complete, more } = useDrawnRows(hasRows)
  return (
    <p
      ref={() => {
        committed.push(drawn)
      }}
      data-complete={complete}
    >
      {drawn}
      <button type="button" onClick={more}>
        more
      </button>
    </p>
  )
}

describe("the log's rows drawn", () => {
  it('draws a screenful first, then the rest of the first page, then a page more at a time', async () => {
    const committed: number[] = []
    const { rerender, container } = render(<Rows hasRows={false} committed={committed} />)
    // Nothing to draw yet (the log is being read): nothing is hurried on.
    expect(container.querySelector('p')!.dataset.complete).toBe('false')
    const before = committed.length
    await act(async () => rerender(<Rows hasRows committed={committed} />))
    expect(committed[before]).toBe(FIRST_PAINT_ROWS)
    expect(committed.at(-1)).toBe(ROWS_AT_ONCE)
    expect(container.querySelector('p')!.dataset.complete).toBe('true')
    fireEvent.click(screen.getByRole('button', { name: 'more' }))
    expect(committed.at(-1)).toBe(2 * ROWS_AT_ONCE)
  })
})
