import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { resetAccount } from './api'
import { useConfig, type PlaygroundConfig } from './config'
import { emptiedLog, holdingLog, type LogState } from './log-state'
import { messageOf } from './format'
import { clearTabLog, forgetAll } from './page-store'
import { keys, useAccountMutation } from './queries'
import { forgetViewParams } from './router'

/** What a reset leaves, in the page's words: as `serve` and the kit reset theirs. */
export const RESET_DONE =
  'The account was reset: back to the secrets it started with (the same keys), no keys or procedures, the clock at real time.'

/**
 * Resets the account as `POST /_account/reset` does everywhere (`serve`, the kit): back to the
 * secrets the page's engine started with (the same keys), no keys or procedures, the clock and
 * the operator's controls as they started, a new signing key; and what the page keeps beside it. A new signing key kills every authorization made before, so
 * the page forgets them, and this tab's exchange log goes with the engine's. For a mutation's
 * body (`useResetAccount`, a contract's replay).
 */
export async function resetPlayground(
  config: PlaygroundConfig,
  queryClient: QueryClient,
  /** A seed to start with from now on (decision 086), `null` for none; absent keeps it. */
  seed?: string | null,
): Promise<void> {
  const logKey = keys.exchanges(config.baseUrl)
  // A read of the log under way would land after the reset with what it read before.
  await queryClient.cancelQueries({ queryKey: logKey })
  await holdingLog(config.baseUrl, async () => {
    await resetAccount(config.baseUrl, seed)
    await Promise.all([forgetAll(config), clearTabLog(config)])
    // The engine's log is empty now: the reader starts again from its first record, rather than
    // take the missing record it last read for a clear still to do (which would wipe what an
    // import then brings back).
    queryClient.setQueryData<LogState>(logKey, (log) =>
      log ? { ...emptiedLog(log, 'reset'), cursor: 0 } : log,
    )
  })
  // The views as they were left name tokens and keys that are gone: they open afresh.
  forgetViewParams()
}

/** The reset, as a mutation. */
export function useResetAccount() {
  const config = useConfig()
  const queryClient = useQueryClient()
  return useAccountMutation(() => resetPlayground(config, queryClient))
}

/**
 * "Reset the account…", asked twice. `compact` where it is a way out of a part that failed
 * (the error boundary). `onReset` says it is done in the caller's own words; without it, this
 * says so itself.
 */
export function ResetAccount({
  compact = false,
  onReset,
}: {
  compact?: boolean
  onReset?: () => void
}) {
  const reset = useResetAccount()
  const [confirming, setConfirming] = useState(false)
  return (
    <div className={compact ? 'reset-account compact' : 'reset-account'}>
      {!confirming ? (
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          Reset the account…
        </button>
      ) : (
        <div role="group" aria-label="Confirm the reset" className="confirm">
          <p>
            This deletes every key and stored procedure of this account and every secret made since
            the page started, brings back the secrets it started with (the same keys), and moves the
            clock back to real time. Every authorization made so far stops working, and the exchange
            log is emptied. It cannot be undone (export the account first to keep a copy).
          </p>
          <button
            type="button"
            className="danger primary"
            disabled={reset.isPending}
            onClick={() =>
              reset.mutate(undefined, {
                onSuccess: () => {
                  setConfirming(false)
                  onReset?.()
                },
              })
            }
          >
            Reset everything
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      {reset.isSuccess && !onReset && (
        <p role="status" className="done">
          {RESET_DONE}
        </p>
      )}
      {reset.isError && <p role="alert">{messageOf(reset.error)}</p>}
    </div>
  )
}
