import { useQueryClient } from '@tanstack/react-query'
import { useRef, type ChangeEvent } from 'react'
import type { ExchangeRecord } from '../../engine'
import { clearExchanges } from '../shared/api'
import { useConfig } from '../shared/config'
import type { LogState } from '../shared/exchange-log'
import { messageOf } from '../shared/format'
import { clearTabLog } from '../shared/page-store'
import { keys, useAccountMutation } from '../shared/queries'
import { openContract, useContract } from './contract-store'
import { harFileName, toHar } from './har'

/** Saves `text` as a file the browser downloads. */
export function download(text: string, fileName: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/** Empties the engine's log and the page's copy of it, and the list with them. */
function useClearLog() {
  const config = useConfig()
  const queryClient = useQueryClient()
  const queryKey = keys.exchanges(config.baseUrl)
  return useAccountMutation(async () => {
    // A read answered before the clear must not bring the old records back after it.
    await queryClient.cancelQueries({ queryKey })
    await clearExchanges(config.baseUrl)
    await clearTabLog(config)
    queryClient.setQueryData<LogState>(queryKey, (log) => log && { ...log, entries: [] })
  })
}

/**
 * What can be done with the log as a whole: export the exchanges shown, open a contract to
 * replay, clear it. Each action is one button here, beside
 * the others.
 */
export function LogActions({
  shown,
  total,
  onCleared,
}: {
  /** The exchanges the filters let through, newest first. */
  shown: readonly ExchangeRecord[]
  total: number
  onCleared: () => void
}) {
  const { baseUrl, serviceName } = useConfig()
  const clear = useClearLog()
  const contract = useContract(baseUrl)
  const replaying = contract?.kind === 'open' && contract.replay?.state === 'running'
  const picker = useRef<HTMLInputElement>(null)

  function exportHar() {
    const har = toHar(shown, serviceName)
    download(JSON.stringify(har, null, 2), harFileName(serviceName, new Date()), 'application/json')
  }

  function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (file) void openContract(baseUrl, file)
  }

  return (
    <>
      <div className="log-actions">
        <button type="button" disabled={shown.length === 0} onClick={exportHar}>
          Export HAR
        </button>
        <button type="button" disabled={replaying} onClick={() => picker.current?.click()}>
          Open contract…
        </button>
        <input
          ref={picker}
          type="file"
          accept="application/json,.json"
          aria-label="Contract file to open"
          hidden
          onChange={chooseFile}
        />
        <button
          type="button"
          disabled={total === 0 || clear.isPending}
          onClick={() => clear.mutate(undefined, { onSuccess: onCleared })}
        >
          Clear log
        </button>
      </div>
      {clear.isError && <p role="alert">{messageOf(clear.error)}</p>}
    </>
  )
}
