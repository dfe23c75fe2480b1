import { useQuery } from '@tanstack/react-query'
import { useRef, useState, type FormEvent } from 'react'
import type { Json } from '../../engine'
import { Field } from '../shared/field'
import { useConfig } from '../shared/config'
import { ErrorReason } from '../shared/refusal'
import { saveProcedure } from './api'
import { EMPTY_PROC, ProcField, readProc, useEndpointNames } from './proc-field'
import { nameProblem } from './rules'
import { proceduresQuery, useAccountMutation } from '../shared/queries'
import { routeHref } from '../shared/router'

/**
 * Creates a stored procedure through `<service>.create`. The name and the tuples are checked
 * as they are typed; nothing is sent while either is wrong.
 */
export function CreateForm({
  token,
  text,
  onText,
}: {
  token: string
  text: string
  onText: (text: string) => void
}) {
  const config = useConfig()
  const [name, setName] = useState('')
  const [tried, setTried] = useState(false)
  const [created, setCreated] = useState<string | null>(null)
  const form = useRef<HTMLFormElement>(null)
  const create = useAccountMutation((variables: { name: string; proc: Json }) =>
    saveProcedure(config, token, 'create', variables),
  )
  const endpoints = useEndpointNames()
  const reading = readProc(text, endpoints)
  // "Created" is said while the procedure is as created: an update or a delete ends it.
  const { data: procedures } = useQuery(proceduresQuery(config.baseUrl))
  const record = created === null ? undefined : procedures?.find((proc) => proc.name === created)
  const stillCreated = record !== undefined && record.updatedAt === record.createdAt
  const shown = tried && reading.empty ? { ...reading, problem: EMPTY_PROC } : reading
  const badName = name !== '' || tried ? nameProblem(name) : undefined

  function submit(event: FormEvent) {
    event.preventDefault()
    setTried(true)
    setCreated(null)
    const proc = reading.value
    // Its calls are checked against the catalogue: nothing is saved before it is read.
    if (nameProblem(name) || proc === undefined || endpoints === undefined) {
      form.current?.querySelector<HTMLElement>(nameProblem(name) ? 'input' : 'textarea')?.focus()
      return
    }
    create.mutate(
      { name, proc },
      {
        onSuccess: () => {
          setCreated(name)
          setName('')
          onText('')
          setTried(false)
        },
      },
    )
  }

  return (
    <form
      ref={form}
      className="proc-create"
      aria-labelledby="proc-create-heading"
      onSubmit={submit}
      noValidate
    >
      <h3 id="proc-create-heading">Create a procedure</h3>
      <Field label="Name (called at lib.<name>)">
        {(id) => (
          <>
            <input
              id={id}
              value={name}
              placeholder="text.shout"
              maxLength={200}
              autoCapitalize="off"
              spellCheck={false}
              aria-invalid={badName ? true : undefined}
              aria-describedby={`${id}-problem`}
              onChange={(event) => setName(event.target.value)}
            />
            <p id={`${id}-problem`} className="proc-problem" aria-live="polite">
              {badName ?? ''}
            </p>
          </>
        )}
      </Field>
      <ProcField label="Procedure (JSON tuples)" text={text} onText={onText} reading={shown} />
      <div>
        <button type="submit" disabled={create.isPending}>
          Create procedure
        </button>
      </div>
      {create.isError && <ErrorReason error={create.error} />}
      {stillCreated && (
        <p role="status" className="proc-done">
          Created <code>lib.{created}</code>. Next: call it from its card above, or{' '}
          <a href={routeHref('console', { endpoint: `lib.${created}` })}>in the console</a>.
        </p>
      )}
    </form>
  )
}
