import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState, type ChangeEvent, type FormEvent } from 'react'
import { Field } from '../field'
import { databaseName, parseConfig } from '../config'
import { messageOf } from '../format'
import { useConfig } from '../shared/config'
import { forgetAllAuthorizations } from '../shared/tokens'
import { exportAccount, importAccount, resetAccount } from './api'

/**
 * Which service the page plays (base URL and service name, each pair with an account of its
 * own), and the account as a whole: reset, export to a file, import from one.
 */
export default function SettingsView() {
  return (
    <>
      <ConfigurationPanel />
      <AccountPanel />
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
  const [confirming, setConfirming] = useState(false)
  const [done, setDone] = useState<string | null>(null)
  const refetchAll = () => queryClient.invalidateQueries()

  const reset = useMutation({
    mutationFn: () => resetAccount(baseUrl),
    onSuccess: () => {
      // A reset makes a new signing key: every authorization made before is dead.
      forgetAllAuthorizations(config)
      setConfirming(false)
      setDone('The account was reset: no secrets, keys or procedures are left.')
    },
    onSettled: refetchAll,
  })
  const download = useMutation({
    mutationFn: async () => {
      const snapshot = await exportAccount(baseUrl)
      const url = URL.createObjectURL(
        new Blob([JSON.stringify(snapshot, null, 2)], { type: 'application/json' }),
      )
      const link = document.createElement('a')
      link.href = url
      link.download = `${config.serviceName}-account-${new Date().toISOString().slice(0, 10)}.json`
      link.click()
      URL.revokeObjectURL(url)
    },
  })
  const upload = useMutation({
    mutationFn: async (file: File) => {
      let snapshot: unknown
      try {
        snapshot = JSON.parse(await file.text())
      } catch {
        throw new Error(`${file.name} is not a JSON file; choose a file the export made`)
      }
      if (snapshot === null || typeof snapshot !== 'object' || Array.isArray(snapshot)) {
        throw new Error(`${file.name} does not hold an exported account`)
      }
      await importAccount(baseUrl, snapshot)
      return file.name
    },
    onSuccess: (name) => setDone(`The account was replaced by the one in ${name}.`),
    onSettled: refetchAll,
  })

  function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (file) upload.mutate(file)
  }

  return (
    <section aria-labelledby="account-heading" className="panel settings">
      <h2 id="account-heading">Account</h2>
      <p className="muted">
        Stored in this browser&apos;s IndexedDB as <code>{databaseName(config)}</code>.
      </p>
      {done && (
        <p role="status" className="done">
          {done}
        </p>
      )}
      <h3>Export and import</h3>
      <p id={warningId} className="warning">
        The exported file holds the account&apos;s secret keys and its signing key: anyone who has
        it can act as this account. Keep it private.
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
      {download.isError && <p role="alert">{messageOf(download.error)}</p>}
      {upload.isError && <p role="alert">Import failed: {messageOf(upload.error)}</p>}

      <h3>Reset</h3>
      {!confirming ? (
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          Reset the account…
        </button>
      ) : (
        <div role="group" aria-label="Confirm the reset" className="confirm">
          <p>
            This deletes every secret, key and stored procedure of this account and moves the clock
            back to real time. Every authorization made so far stops working. It cannot be undone
            (export the account first to keep a copy).
          </p>
          <button
            type="button"
            className="danger primary"
            disabled={reset.isPending}
            onClick={() => reset.mutate()}
          >
            Reset everything
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      {reset.isError && <p role="alert">{messageOf(reset.error)}</p>}
    </section>
  )
}
