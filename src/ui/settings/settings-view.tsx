import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react'
import { exportAccount, importAccount } from '../shared/api'
import { databaseName, parseConfig, useConfig } from '../shared/config'
import { emptiedLog, exchangeLogQuery, holdingLog, type LogState } from '../shared/exchange-log'
import { Field } from '../shared/field'
import { messageOf } from '../shared/format'
import { readPagePart, withPagePart } from '../shared/page-file'
import { listRemembered, replaceTabLog, restoreRemembered, tabLog } from '../shared/page-store'
import { keys, useAccountMutation } from '../shared/queries'
import { RESET_DONE, ResetAccount } from '../shared/reset-account'
import { ScenarioPicker } from '../scenarios/scenario-picker'
import { OperatorPanel } from './operator-panel'
import { SeedPart } from './seed-part'

/**
 * Which service the page plays (base URL and service name, each pair with an account of its
 * own), and the account as a whole: reset, export to a file, import from one.
 */
export default function SettingsView() {
  return (
    <>
      <ConfigurationPanel />
      <section aria-label="Scenarios" className="panel settings">
        <ScenarioPicker />
      </section>
      <AccountPanel />
      <OperatorPanel />
    </>
  )
}

function ConfigurationPanel() {
  const config = useConfig()
  const [baseUrl, setBaseUrl] = useState(config.baseUrl)
  const [serviceName, setServiceName] = useState(config.serviceName)
  const [problem, setProblem] = useState<string | null>(null)

  function open(event: FormEvent) {
    event.preventDefault()
    const search = `?${new URLSearchParams({ baseUrl, serviceName })}`
    const parsed = parseConfig(search, window.location.origin)
    if (!parsed.ok) return setProblem(parsed.error)
    // The engine is made for one configuration when the page starts: open the page anew.
    window.location.assign(`${window.location.pathname}${search}${window.location.hash}`)
  }

  return (
    <section aria-labelledby="configuration-heading" className="panel settings">
      <h2 id="configuration-heading">Service</h2>
      <p className="muted">
        The playground answers requests to the base URL, under the service&apos;s name (its content
        type <code>application/vnd.{config.serviceName}+json</code>, its stored-procedure package
        and its error wording). Each pair keeps an account of its own in this browser. The page URL
        carries them too: <code>?baseUrl=…&amp;serviceName=…</code>.
      </p>
      <form onSubmit={open} className="settings-form" noValidate>
        <Field label="Base URL">
          {(id) => (
            <input
              id={id}
              value={baseUrl}
              spellCheck={false}
              onChange={(event) => setBaseUrl(event.target.value)}
            />
          )}
        </Field>
        <Field label="Service name">
          {(id) => (
            <input
              id={id}
              value={serviceName}
              spellCheck={false}
              onChange={(event) => setServiceName(event.target.value)}
            />
          )}
        </Field>
        <div>
          <button type="submit">Open this service</button>
        </div>
      </form>
      {problem && <p role="alert">{problem}</p>}
    </section>
  )
}

function AccountPanel() {
  const config = useConfig()
  const { baseUrl } = config
  const queryClient = useQueryClient()
  const warningId = useId()
  const [done, setDone] = useState<string | null>(null)
  // The file chosen to import, until the replacement is confirmed.
  const [chosen, setChosen] = useState<File | null>(null)

  const download = useAccountMutation(async () => {
    // The log as it stands now, with the exchanges answered since its last read.
    await queryClient.fetchQuery({ ...exchangeLogQuery(config), staleTime: 0 })
    const [snapshot, authorizations, log] = await holdingLog(baseUrl, () =>
      Promise.all([exportAccount(baseUrl), listRemembered(config), tabLog(config)]),
    )
    const exchanges = log.reverse().map(({ tab: _tab, engineId: _engine, ...record }) => record)
    const file = withPagePart(snapshot, { authorizations, exchanges })
    const url = URL.createObjectURL(
      new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }),
    )
    const link = document.createElement('a')
    link.href = url
    link.download = `${config.serviceName}-account-${new Date().toISOString().slice(0, 10)}.json`
    link.click()
    URL.revokeObjectURL(url)
  })
  const upload = useAccountMutation(async (file: File) => {
    let parsed: unknown
    try {
      parsed = JSON.parse(await file.text())
    } catch {
      throw new Error(`${file.name} is not a JSON file; choose a file the export made`)
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new Error(`${file.name} does not hold an exported account`)
    }
    const { playground: _page, ...snapshot } = parsed as Record<string, unknown>
    const page = readPagePart(parsed)
    await queryClient.cancelQueries({ queryKey: keys.exchanges(baseUrl) })
    await holdingLog(baseUrl, async () => {
      await importAccount(baseUrl, snapshot)
      // The imported account signs with its own key: the authorizations that count are the
      // file's. This tab's log is the file's too, when it has one.
      await restoreRemembered(config, page?.authorizations ?? [], { replace: true })
      if (!page) return
      const entries = (await replaceTabLog(config, page.exchanges)).reverse()
      queryClient.setQueryData<LogState>(keys.exchanges(baseUrl), (log) =>
        emptiedLog(log, 'import', entries),
      )
    })
    const skipped = page?.skipped
      ? ` ${page.skipped} of the page's entries in it could not be read and were left out.`
      : ''
    return `The account was replaced by the one in ${file.name}.${skipped}`
  })

  function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    event.target.value = ''
    upload.reset()
    if (file) setChosen(file)
  }

  return (
    <section aria-labelledby="account-heading" className="panel settings">
      <h2 id="account-heading">Account</h2>
      <p className="muted">
        Stored in this browser&apos;s IndexedDB as <code>{databaseName(config)}</code>, with the
        authorizations made here and each tab&apos;s exchange log beside it.
      </p>
      {done && (
        <p role="status" className="done">
          {done}
        </p>
      )}
      <h3>Export and import</h3>
      <p id={warningId} className="warning">
        The exported file holds the account&apos;s secret keys and its signing key, the
        authorizations made here and this tab&apos;s exchange log (with the tokens its requests
        sent): anyone who has it can act as this account. Keep it private.
      </p>
      <div className="settings-actions">
        <button
          type="button"
          aria-describedby={warningId}
          disabled={download.isPending}
          onClick={() => download.mutate()}
        >
          Export account
        </button>
        <Field label="Import account (replaces everything)">
          {(id) => (
            <input
              id={id}
              type="file"
              accept="application/json,.json"
              disabled={upload.isPending}
              onChange={chooseFile}
            />
          )}
        </Field>
      </div>
      {chosen && (
        <ImportQuestion
          fileName={chosen.name}
          pending={upload.isPending}
          onImport={() =>
            upload.mutate(chosen, {
              onSuccess: (message) => setDone(message),
              onSettled: () => setChosen(null),
            })
          }
          onCancel={() => setChosen(null)}
        />
      )}
      {download.isError && <p role="alert">{messageOf(download.error)}</p>}
      {upload.isError && <p role="alert">Import failed: {messageOf(upload.error)}</p>}

      <h3>Reset</h3>
      <ResetAccount onReset={() => setDone(RESET_DONE)} />
      <SeedPart onDone={setDone} />
    </section>
  )
}

/** An import replaces the whole account, as a reset does: asked first, in the same words. */
function ImportQuestion({
  fileName,
  pending,
  onImport,
  onCancel,
}: {
  fileName: string
  pending: boolean
  onImport: () => void
  onCancel: () => void
}) {
  const cancel = useRef<HTMLButtonElement>(null)
  useEffect(() => cancel.current?.focus(), [])
  return (
    <div role="group" aria-label="Confirm the import" className="confirm">
      <p>
        Replace this account with the one in <code>{fileName}</code>? Every secret, key and stored
        procedure of this account is replaced by the file&apos;s, every authorization made so far
        stops working (the file brings its own signing key and its own authorizations), and the
        clock and this tab&apos;s exchange log become the file&apos;s. It cannot be undone (export
        the account first to keep a copy).
      </p>
      <button type="button" className="danger primary" disabled={pending} onClick={onImport}>
        Replace the account
      </button>{' '}
      <button ref={cancel} type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  )
}
