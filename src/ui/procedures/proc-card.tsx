import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { formatTime } from '../shared/format'
import { routeHref } from '../shared/router'
import { useConfig } from '../shared/config'
import { ErrorReason } from '../shared/refusal'
import type { TokenChoice } from '../shared/tokens'
import { deleteProcedure, releaseProcedure, saveProcedure, type ProcRecord } from './api'
import { CallForm } from './call-form'
import { formatTuples } from './format-tuples'
import { EMPTY_PROC, ProcField, readProc, useEndpointNames } from './proc-field'
import { useAccountMutation } from '../shared/queries'
import type { StoredProcedure } from './stages'

type Mode = 'call' | 'call-dev' | 'edit' | 'delete'

/**
 * One stored procedure: its stages (released, and a dev stage a deploy left), the tuples and
 * times of each, and calling either stage, releasing the dev stage, editing (which releases)
 * and deleting (both stages).
 */
export function ProcCard({ procedure, token }: { procedure: StoredProcedure; token: TokenChoice }) {
  const headingId = useId()
  const [mode, setMode] = useState<Mode | null>(null)
  const toggle = (wanted: Mode) => setMode(mode === wanted ? null : wanted)
  const { name, release, dev } = procedure
  const endpoint = `lib.${name}`
  // `lib.<name>` calls the release, or the dev stage while nothing is released.
  const proc = (release ?? dev)!
  const times = release ?? dev!
  return (
    <article
      className="proc-card"
      aria-labelledby={headingId}
      data-testid="procedure"
      data-name={name}
    >
      <div className="proc-card-heading">
        <h4 id={headingId}>
          <code>{endpoint}</code>
        </h4>
        <p className="muted proc-times">
          Created {formatTime(times.createdAt)}
          {times.updatedAt !== times.createdAt && ` · updated ${formatTime(times.updatedAt)}`}
        </p>
      </div>
      <ul className="proc-stages" aria-label={`Stages of ${endpoint}`}>
        {release && <li className="stage stage-release">released</li>}
        {dev && (
          <li className="stage stage-dev">dev stage{release ? ', newer than the release' : ''}</li>
        )}
      </ul>
      {release ? (
        <pre aria-label={`Tuples of ${endpoint}`} data-testid="proc-tuples">
          {formatTuples(release.proc)}
        </pre>
      ) : (
        <p className="muted proc-stage-note">
          Not released: <code>{endpoint}</code> calls the dev stage until it is.
        </p>
      )}
      {dev && (
        <pre aria-label={`Tuples of ${endpoint}:dev`} data-testid="proc-dev-tuples">
          {formatTuples(dev.proc)}
        </pre>
      )}
      <div className="proc-actions">
        <button
          type="button"
          aria-expanded={mode === 'call'}
          aria-label={`Call ${endpoint}`}
          onClick={() => toggle('call')}
        >
          Call
        </button>
        {dev && release && (
          <button
            type="button"
            aria-expanded={mode === 'call-dev'}
            aria-label={`Call ${endpoint}:dev`}
            onClick={() => toggle('call-dev')}
          >
            Call the dev stage
          </button>
        )}
        {dev && <ReleaseButton name={name} dev={dev} token={token.token} />}
        <button
          type="button"
          aria-pressed={mode === 'edit'}
          aria-label={`Edit ${endpoint}`}
          onClick={() => toggle('edit')}
        >
          Edit
        </button>
        <a href={routeHref('console', { token: token.id, endpoint })} aria-describedby={headingId}>
          Open in console
        </a>
        <a
          href={routeHref('authorizations', { who: 'procedure', whoName: name })}
          aria-describedby={headingId}
        >
          Who can call it?
        </a>
        <button
          type="button"
          aria-pressed={mode === 'delete'}
          aria-label={`Delete ${endpoint}`}
          onClick={() => toggle('delete')}
        >
          Delete
        </button>
      </div>
      {mode === 'call' && <CallForm token={token.token} name={name} />}
      {mode === 'call-dev' && <CallForm token={token.token} name={`${name}:dev`} />}
      {mode === 'edit' && (
        <EditForm proc={{ ...proc, name }} token={token.token} onDone={() => setMode(null)} />
      )}
      {mode === 'delete' && (
        <DeleteQuestion
          name={name}
          staged={Boolean(dev && release)}
          token={token.token}
          onDone={() => setMode(null)}
        />
      )}
    </article>
  )
}

/** Makes the dev stage the release (`<service>.deploy` with `release: true`). */
function ReleaseButton({ name, dev, token }: { name: string; dev: ProcRecord; token: string }) {
  const config = useConfig()
  const release = useAccountMutation(() =>
    releaseProcedure(config, token, { name, proc: dev.proc }),
  )
  return (
    <>
      <button
        type="button"
        aria-label={`Release the dev stage of lib.${name}`}
        disabled={release.isPending}
        onClick={() => release.mutate()}
      >
        Release the dev stage
      </button>
      {release.isError && <ErrorReason error={release.error} />}
    </>
  )
}

/** Replaces the procedure's tuples through `<service>.update`, which releases them. */
function EditForm({
  proc,
  token,
  onDone,
}: {
  proc: ProcRecord
  token: string
  onDone: () => void
}) {
  const config = useConfig()
  const [text, setText] = useState(() => formatTuples(proc.proc))
  const [tried, setTried] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  const update = useAccountMutation((value: Parameters<typeof saveProcedure>[3]) =>
    saveProcedure(config, token, 'update', value),
  )
  const endpoints = useEndpointNames()
  const reading = readProc(text, endpoints)
  const shown = tried && reading.empty ? { ...reading, problem: EMPTY_PROC } : reading
  useEffect(() => form.current?.querySelector('textarea')?.focus(), [])

  function submit(event: FormEvent) {
    event.preventDefault()
    setTried(true)
    // Its calls are checked against the catalogue: nothing is saved before it is read.
    if (reading.value === undefined || endpoints === undefined) return
    update.mutate({ name: proc.name, proc: reading.value }, { onSuccess: onDone })
  }

  return (
    <form ref={form} className="proc-edit" onSubmit={submit} noValidate>
      <ProcField
        label={`New tuples of lib.${proc.name}`}
        text={text}
        onText={setText}
        reading={shown}
      />
      <div className="proc-buttons">
        <button type="submit" disabled={update.isPending}>
          Save procedure
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      {update.isError && <ErrorReason error={update.error} />}
    </form>
  )
}

function DeleteQuestion({
  name,
  staged,
  token,
  onDone,
}: {
  name: string
  /** It has a dev stage beside its release: both go. */
  staged: boolean
  token: string
  onDone: () => void
}) {
  const config = useConfig()
  const confirm = useRef<HTMLButtonElement>(null)
  const remove = useAccountMutation(() => deleteProcedure(config, token, name))
  useEffect(() => confirm.current?.focus(), [])
  return (
    <div className="proc-delete" role="group" aria-label={`Delete lib.${name}?`}>
      <p>
        Delete <code>lib.{name}</code>
        {staged ? ' and its dev stage' : ''}? Calls to it will answer 404.
      </p>
      <div className="proc-buttons">
        <button
          ref={confirm}
          type="button"
          className="danger"
          disabled={remove.isPending}
          onClick={() => remove.mutate(undefined, { onSuccess: onDone })}
        >
          Delete procedure
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      {remove.isError && <ErrorReason error={remove.error} />}
    </div>
  )
}
