import { QueryClientProvider, useQuery } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { CommitMessage } from '../../storage/broadcast-store'
import { createQueryClient } from './query-client'
import { thisTab, useAccountSync } from './sync'

let channels = 0
const freshName = () => `sync-test-${thisTab}-${channels++}`
const commit = (sender: string): CommitMessage => ({ type: 'commit', sender, ops: ['putSecret'] })

/** Renders a query that counts its fetches, with `useAccountSync` on `channelName`. */
function renderSynced(channelName: string) {
  let fetches = 0
  function Probe() {
    useAccountSync(channelName)
    const query = useQuery({ queryKey: ['probe'], queryFn: async () => ++fetches })
    return <p data-testid="fetches">{query.data ?? 0}</p>
  }
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Probe />
    </QueryClientProvider>,
  )
  return { fetches: () => fetches }
}

describe('useAccountSync', () => {
  const open: BroadcastChannel[] = []
  afterEach(() => {
    cleanup()
    open.splice(0).forEach((channel) => channel.close())
  })
  const channel = (name: string) => {
    const opened = new BroadcastChannel(name)
    open.push(opened)
    return opened
  }

  it("refetches every query when another tab commits, once for a burst, never for this tab's commits", async () => {
    const name = freshName()
    const probe = renderSynced(name)
    expect(await screen.findByText('1')).toBeTruthy()

    const otherTab = channel(name)
    otherTab.postMessage(commit('another-tab'))
    otherTab.postMessage(commit('another-tab'))
    otherTab.postMessage(commit('another-tab'))
    expect(await screen.findByText('2')).toBeTruthy()

    // This tab's commits, then another tab's: only the last refetches, so the count is 3.
    otherTab.postMessage(commit(thisTab))
    otherTab.postMessage({ type: 'something else' })
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(probe.fetches()).toBe(2)
    otherTab.postMessage(commit('another-tab'))
    expect(await screen.findByText('3')).toBeTruthy()
  })

  it('hears nothing from another configuration', async () => {
    const probe = renderSynced(freshName())
    expect(await screen.findByText('1')).toBeTruthy()
    channel(freshName()).postMessage(commit('another-tab'))
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(probe.fetches()).toBe(1)
  })
})
