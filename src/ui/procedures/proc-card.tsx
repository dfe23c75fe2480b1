import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { formatTime } from '../shared/format'
import { routeHref } from '../shared/router'
import { useConfig } from '../shared/config'
import { ErrorReason } from '../shared/refusal'
import type { TokenChoice } from '../shared/tokens'
import { deleteProcedure, saveProcedure, type ProcRecord } from './api'
import { CallForm } from './call-form'
import { formatTuples } from './format-tuples'
import { EMPTY_PROC, ProcField, readProc, useEndpointNames } from './proc-field'
import { useAccountMutation } from '../shared/queries'

type Mode = 'call' | 'edit' | 'delete'

/** One stored procedure: its tuples and times, and calling, editing and deleting it. */
export function ProcCard({ proc, token }: { proc: ProcRecord; token: TokenChoice }) {
  const headingId = useId()
  const [mode, setMode] = useState<Mode | null>(null)
  const toggle = (wanted: Mode) => setMode(mode === wanted ? null : wanted)
  const endpoint = `lib.${proc.name}`
  return (
    <article
      className="proc-card"
      aria-labelledby={headingId}
      data-testid="procedure"
      data-name={proc.name}
    >
      <div className="proc-card-heading">
        <h4 id={headingId}>
          <code>{endpoint}</code>
        </h4>
        <p className="muted proc-times">
          Created {formatTime(proc.createdAt)}
          {proc.updatedAt !== proc.createdAt && ` · updated ${formatTime(proc.updatedAt)}`}
        </p>
      </div>
      <pre aria-label={`Tuples of ${endpoint}`} data-testid="proc-tuples">
        {formatTuples(proc.proc)}
      </pre>
      <div className="proc-actions">
        <button
          type="button"
          aria-expanded={mode === 'call'}
          aria-label={`Call ${endpoint}`}
          onClick={() => toggle('call')}
        >
          Call
        </button>
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
        <button
          type="button"
          aria-pressed={mode === 'delete'}
          aria-label={`Delete ${endpoint}`}
          onClick={() => toggle('delete')}
        >
          Delete
        </button>
      </div>
      {mode === 'call' && <CallForm token={token.token} name={proc.name} />}
      {mode === 'edit' && <EditForm proc={proc} token={token.token} onDone={() => setMode(null)} />}
      {mode === 'delete' && (
        <DeleteQuestion name={proc.name} token={token.token} onDone={() => setMode(null)} />
      )}
    </article>
  )
}

/** Replaces the procedure's tuples through `<service>.update`. */
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
  const reading = readProc(text, useEndpointNames())
  const shown = tried && reading.empty ? { ...reading, problem: EMPTY_PROC } : reading
  useEffect(() => form.current?.querySelector('textarea')?.focus(), [])

  function submit(event: FormEvent) {
    event.preventDefault()
    setTried(true)
    if (reading.value === undefined) return
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
  token,
  onDone,
}: {
  name: string
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
        Delete <code>lib.{name}</code>? Calls to it will answer 404.
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
