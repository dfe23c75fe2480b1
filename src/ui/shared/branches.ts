import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { rewindTo, switchBranch, type BranchInfo } from './api'
import { useConfig, type PlaygroundConfig } from './config'
import type { LogState } from './log-state'
import { clearTabLog } from './page-store'
import { keys, useAccountMutation } from './queries'

/**
 * Moves the account through its history (decision 086) — back to just before an exchange, on a
 * new branch, or onto another branch as it was left — and this tab's log with it: the log is
 * read again whole from the engine's journal, which holds the branch's exchanges.
 */
export async function moveAccount(
  config: PlaygroundConfig,
  queryClient: QueryClient,
  move: () => Promise<BranchInfo>,
): Promise<BranchInfo> {
  const logKey = keys.exchanges(config.baseUrl)
  // A read of the log under way would land after the move with what it read before.
  await queryClient.cancelQueries({ queryKey: logKey })
  const branch = await move()
  await clearTabLog(config)
  queryClient.setQueryData<LogState>(logKey, (log) =>
    log ? { entries: [], cursor: 0, total: 0, from: 0 } : log,
  )
  await queryClient.invalidateQueries({ queryKey: logKey })
  return branch
}

/** Back to just before the engine's exchange `before`, as a mutation. */
export function useRewind() {
  const config = useConfig()
  const queryClient = useQueryClient()
  return useAccountMutation((before: number) =>
    moveAccount(config, queryClient, () => rewindTo(config.baseUrl, before)),
  )
}

/** Onto branch `id`, as a mutation. */
export function useSwitchBranch() {
  const config = useConfig()
  const queryClient = useQueryClient()
  return useAccountMutation((id: string) =>
    moveAccount(config, queryClient, () => switchBranch(config.baseUrl, id)),
  )
}
