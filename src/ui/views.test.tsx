import { act, fireEvent, render, screen } from '@testing-library/react'
import { Suspense } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorBoundary } from './shared/error-boundary'
import { preloadView, ViewOf } from './views'

/** When each held view's code arrives, and whether it fails to. */
const gates = vi.hoisted(() => {
  const make = () => {
    let open!: () => void
    let fail!: (error: Error) => void
    const promise = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)))
    return { promise, open, fail }
  }
  return { make, watches: make(), coverage: make(), coverageTries: 0 }
})

vi.mock('./watches/watches-view', async () => {
  await gates.watches.promise
  return { default: () => <h2>Watches</h2> }
})
vi.mock('./coverage/coverage-view', async () => {
  gates.coverageTries++
  await gates.coverage.promise
  return { default: () => <h2>Coverage</h2> }
})
vi.mock('./settings/settings-view', () => ({ default: () => <h2>Settings</h2> }))

afterEach(() => vi.restoreAllMocks())

const shown = (id: 'watches' | 'coverage' | 'settings') =>
  render(
    <ErrorBoundary what="The view">
      <Suspense fallback={<p>suspended</p>}>
        <ViewOf id={id} fallback={<p>Loading the view…</p>} />
      </Suspense>
    </ErrorBoundary>,
  )

describe('a view by its code', () => {
  it('draws a view whose code has arrived at once, with no loading state', async () => {
    await preloadView('settings')
    shown('settings')
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeTruthy()
    expect(screen.queryByText(/Loading|suspended/)).toBeNull()
  })

  it('says the view is loading until its code arrives, then draws it', async () => {
    shown('watches')
    expect(screen.getByText('Loading the view…')).toBeTruthy()
    expect(screen.queryByRole('heading', { name: 'Watches' })).toBeNull()
    await act(async () => {
      gates.watches.open()
      await preloadView('watches')
    })
    expect(screen.getByRole('heading', { name: 'Watches' })).toBeTruthy()
    expect(screen.queryByText(/Loading|suspended/)).toBeNull()
  })

  it('shows a failed load where the view goes, and asks for the code again on "Try again"', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    shown('coverage')
    await act(async () => {
      gates.coverage.fail(new Error('Failed to fetch dynamically imported module'))
      await preloadView('coverage').catch(() => undefined)
    })
    // Vitest words a failed mocked module its own way; the boundary shows whatever it threw.
    expect(screen.getByRole('alert', { name: 'The view failed' })).toBeTruthy()
    expect(screen.queryByText(/Loading|suspended/)).toBeNull()
    const tries = gates.coverageTries
    gates.coverage = gates.make()
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    await act(async () => {
      gates.coverage.open()
      await preloadView('coverage')
    })
    expect(gates.coverageTries).toBe(tries + 1)
    expect(screen.getByRole('heading', { name: 'Coverage' })).toBeTruthy()
  })
})
