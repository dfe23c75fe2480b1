import { QueryClientProvider, useQuery } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import type { CommitMessage } from '../../storage/broadcast-store'
import { createQueryClient } from './query-client'
import { isCommitMessage as storeCheck } from '../../storage/broadcast-store'
import { isCommitMessage, isForeignCommit, thisTab, useAccountSync } from './sync'

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

  it('refetches every query when another tab commits, once for a burst', async () => {
    const name = freshName()
    const probe = renderSynced(name)
    expect(await screen.findByText('1')).toBeTruthy()

    const otherTab = channel(name)
    otherTab.postMessage(commit('another-tab'))
    otherTab.postMessage(commit('another-tab'))
    otherTab.postMessage(commit('another-tab'))
    expect(await screen.findByText('2')).toBeTruthy()
    // Had the burst refetched once per commit, those refetches would come before this one's.
    otherTab.postMessage(commit('another-tab'))
    expect(await screen.findByText('3')).toBeTruthy()
    expect(probe.fetches()).toBe(3)
  })

  it("heeds only another tab's commits: never this tab's own, nor other messages", () => {
    expect(isForeignCommit(commit('another-tab'))).toBe(true)
    expect(isForeignCommit(commit(thisTab))).toBe(false)
    expect(isForeignCommit({ type: 'something else' })).toBe(false)
  })

  it("reads commit messages as the store's own check does", () => {
    const samples = [
      commit('a-tab'),
      { type: 'commit', sender: 7, ops: [] },
      { type: 'commit' },
      { type: 'other', sender: 'a-tab' },
      null,
      'commit',
    ]
    for (const sample of samples) {
      expect(isCommitMessage(sample)).toBe(storeCheck(sample))
    }
  })

  it("listens on its own configuration's channel only", () => {
    const names: string[] = []
    const Real = globalThis.BroadcastChannel
    vi.stubGlobal(
      'BroadcastChannel',
      class extends Real {
        constructor(name: string) {
          super(name)
          names.push(name)
        }
      },
    )
    onTestFinished(() => void vi.unstubAllGlobals())
    const name = freshName()
    renderSynced(name)
    expect(names).toEqual([name])
  })
})
