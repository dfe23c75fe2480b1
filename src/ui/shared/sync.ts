import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { CommitMessage } from '../../storage'
import { databaseName, type PlaygroundConfig } from './config'
import { pageDatabaseName } from './page-store'
import { keys } from './queries'

/** This tab, as the commits of its engine name it (`broadcastCommits`' `sender`). */
export const thisTab = `tab_${crypto.randomUUID()}`

/**
 * Whether a message on an account's channel is a commit (`CommitMessage`, what the page's store
 * posts after each commit). Read here from the message itself: the playground imports no code
 * of the storage, only its types.
 */
export function isCommitMessage(data: unknown): data is CommitMessage {
  const message = data as Partial<CommitMessage> | null
  return message?.type === 'commit' && typeof message.sender === 'string'
}

/** Whether a message on the channel is a commit another tab made: the only kind heeded. */
export const isForeignCommit = (data: unknown): boolean =>
  isCommitMessage(data) && data.sender !== thisTab

/** Commits heard within this many milliseconds of the first cause one refetch. */
const SETTLE_MS = 50

/**
 * Keeps the playground in step with other tabs of its configuration: when one of them commits
 * to the account (a `CommitMessage` on the BroadcastChannel `channelName`), every query is
 * invalidated, so what is on screen is read again. This tab's own commits are skipped: its
 * mutations invalidate what they change themselves, and its calls would otherwise refetch
 * after every write they make. A burst of commits causes one refetch.
 */
export function useAccountSync(channelName: string): void {
  const queryClient = useQueryClient()
  useEffect(() => {
    const channel = new BroadcastChannel(channelName)
    let pending: ReturnType<typeof setTimeout> | undefined
    channel.onmessage = (event: MessageEvent<unknown>) => {
      if (!isForeignCommit(event.data)) return
      pending ??= setTimeout(() => {
        pending = undefined
        void queryClient.invalidateQueries()
      }, SETTLE_MS)
    }
    return () => {
      clearTimeout(pending)
      channel.close()
    }
  }, [channelName, queryClient])
}

/**
 * Keeps the remembered authorizations in step with other tabs: the page's own storage says on
 * its channel when another tab changed them.
 */
export function usePageSync(config: PlaygroundConfig): void {
  const queryClient = useQueryClient()
  useEffect(() => {
    const channel = new BroadcastChannel(pageDatabaseName(config))
    channel.onmessage = () =>
      void queryClient.invalidateQueries({ queryKey: keys.remembered(config.baseUrl) })
    return () => channel.close()
  }, [config, queryClient])
}

/** `useAccountSync` and `usePageSync` for `config`, mounted inside the query client. */
export function AccountSync({ config }: { config: PlaygroundConfig }): null {
  useAccountSync(databaseName(config))
  usePageSync(config)
  return null
}
