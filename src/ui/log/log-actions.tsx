import { useQueryClient } from '@tanstack/react-query'
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react'
import type { ExchangeRecord } from '../../engine'
import { clearExchanges } from '../shared/api'
import { useConfig } from '../shared/config'
import { emptiedLog, holdingLog, type LogState } from '../shared/exchange-log'
import { Field } from '../shared/field'
import { messageOf } from '../shared/format'
import { clearTabLog, type PageExchange } from '../shared/page-store'
import { keys, useAccountMutation } from '../shared/queries'
import { openContract, useContract } from './contract-store'
import { contractFileName, saveContract, type OpenedContract } from './contracts'
import { CopyAsTest } from './copy-as-test'
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
    await holdingLog(config.baseUrl, async () => {
      await clearExchanges(config.baseUrl)
      await clearTabLog(config)
      queryClient.setQueryData<LogState>(queryKey, (log) => log && emptiedLog(log, 'clear'))
    })
  })
}

/**
 * What can be done with the log as a whole: export the exchanges shown, save the chosen ones
 * as a contract, open a contract to replay, clear it. Each action is one button here, beside
 * the others.
 */
export function LogActions({
  shown,
  all,
  total,
  chosen,
  onChooseNone,
  onCleared,
}: {
  /** The exchanges the filters let through, newest first. */
  shown: readonly ExchangeRecord[]
  /** Every exchange the log holds, newest first. */
  all: readonly ExchangeRecord[]
  total: number
  /** The exchanges chosen with their boxes, newest first (shown or not). */
  chosen: readonly PageExchange[]
  onChooseNone: () => void
  onCleared: () => void
}) {
  const { baseUrl, serviceName } = useConfig()
  const clear = useClearLog()
  const contract = useContract(baseUrl)
  const open = contract?.kind === 'open' ? contract.contract : undefined
  const replaying = contract?.kind === 'open' && contract.replay?.state === 'running'
  const [saving, setSaving] = useState(false)
  const picker = useRef<HTMLInputElement>(null)

  function exportHar() {
    const har = toHar(shown, serviceName)
    download(JSON.stringify(har, null, 2), harFileName(serviceName, new Date()), 'application/json')
  }

  function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (file) void openContract(baseUrl, file, { serviceName })
  }

  return (
    <>
      <div className="log-actions">
        <button type="button" disabled={shown.length === 0} onClick={exportHar}>
          Export HAR
        </button>
        <CopyAsTest chosen={chosen} shown={shown} all={all} />
        <button
          type="button"
          aria-expanded={saving}
          disabled={chosen.length === 0 && !saving}
          onClick={() => setSaving(!saving)}
        >
          Save as contract…
        </button>
        <button type="button" disabled={replaying} onClick={() => picker.current?.click()}>
          Open contract…
        </button>
        <input
          ref={picker}
          type="file"
          accept="application/json,.json,.har"
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
      {saving && (
        <SaveContractForm
          chosen={chosen}
          open={open}
          onChooseNone={onChooseNone}
          onClose={() => setSaving(false)}
        />
      )}
    </>
  )
}

const DEFAULT_NAME = 'exchanges recorded in the playground'

/**
 * Saves the chosen exchanges as a contract: one case, named here, in a new file or added to
 * the contract open in the page (replacing its case of the same name), downloaded as the
 * command line writes contracts. Says what the recorder left out, or why it could not record.
 */
function SaveContractForm({
  chosen,
  open,
  onChooseNone,
  onClose,
}: {
  chosen: readonly PageExchange[]
  open: OpenedContract | undefined
  onChooseNone: () => void
  onClose: () => void
}) {
  const config = useConfig()
  const [name, setName] = useState(DEFAULT_NAME)
  const [into, setInto] = useState<'new' | 'open'>('new')
  const adding = into === 'open' && open !== undefined
  const headingId = useId()
  const save = useAccountMutation(async () => {
    const saved = await saveContract(config, chosen, name.trim(), adding ? open : undefined)
    download(saved.text, saved.fileName, 'application/json')
    return saved
  })
  const count = `${chosen.length} ${chosen.length === 1 ? 'exchange' : 'exchanges'}`

  function submit(event: FormEvent) {
    event.preventDefault()
    if (name.trim() !== '' && chosen.length > 0) save.mutate()
  }

  return (
    <form className="log-save" aria-labelledby={headingId} onSubmit={submit} noValidate>
      <h3 id={headingId}>Save as contract</h3>
      <p className="muted">
        {chosen.length === 0
          ? 'No exchange chosen: choose some with their boxes. '
          : `${count} chosen. `}
        Replayed with <code>npx service-playground verify</code> against any target, or opened here.
        Tokens are not written: each becomes a role, made afresh when it is replayed.
      </p>
      <Field label="Case name">
        {(id) => (
          <input
            id={id}
            value={name}
            required
            spellCheck={false}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </Field>
      {open && (
        <fieldset className="log-save-into">
          <legend>File</legend>
          <label>
            <input type="radio" name="into" checked={!adding} onChange={() => setInto('new')} /> A
            new file, <code>{contractFileName(name.trim())}</code>
          </label>
          <label>
            <input type="radio" name="into" checked={adding} onChange={() => setInto('open')} />{' '}
            Added to <code>{open.fileName}</code>, open below (a case of the same name is replaced)
          </label>
        </fieldset>
      )}
      <div className="log-actions">
        <button
          type="submit"
          disabled={save.isPending || chosen.length === 0 || name.trim() === ''}
        >
          Download contract
        </button>
        <button type="button" disabled={chosen.length === 0} onClick={onChooseNone}>
          Choose none
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {name.trim() === '' && <p role="alert">Name the case: a contract&apos;s cases go by name.</p>}
      {save.isError && <p role="alert">Not saved: {messageOf(save.error)}</p>}
      {save.isSuccess && (
        <div role="status" className="done">
          <p>
            Saved <code>{save.data.fileName}</code>: the case &ldquo;{save.data.recorded.name}
            &rdquo;, {save.data.recorded.steps.length}{' '}
            {save.data.recorded.steps.length === 1 ? 'step' : 'steps'}.
          </p>
          {save.data.recorded.notes && (
            <ul className="log-save-notes" aria-label="Notes of the recorded case">
              {save.data.recorded.notes.map((note, index) => (
                <li key={index}>{note}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </form>
  )
}
