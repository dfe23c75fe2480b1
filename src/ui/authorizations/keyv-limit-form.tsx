import { useId, useState, type FormEvent } from 'react'
import { Field } from '../shared/field'
import type { EndpointInfo } from '../shared/catalogue'
import { keyvAbility } from '../shared/abilities'
import { Name } from '../shared/quoted'

/**
 * Adds a limited key-value ability: `keyv` or one of its endpoints, held to one bucket and/or
 * to keys starting with a prefix (`keyv.get?bucket=users&prefix=alice%2F`). Limits exist only
 * on keyv abilities.
 */
export function KeyvLimitForm({
  endpoints,
  onAdd,
}: {
  endpoints: readonly EndpointInfo[]
  onAdd: (ability: string) => void
}) {
  const hintId = useId()
  const [name, setName] = useState('keyv')
  const [bucket, setBucket] = useState('')
  const [prefix, setPrefix] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const names = ['keyv', ...endpoints.map((e) => e.name).filter((n) => n.startsWith('keyv.'))]
  const ability = keyvAbility(name, { bucket, prefix })

  function submit(event: FormEvent) {
    event.preventDefault()
    if (!bucket && !prefix) {
      setProblem(`Give a bucket, a prefix or both; for no limit, tick ${name} in the catalogue.`)
      return
    }
    setProblem(null)
    onAdd(ability)
    setBucket('')
    setPrefix('')
  }

  return (
    <form className="keyv-limit" onSubmit={submit} noValidate aria-label="Key-value limit">
      <Field label="Key-value ability">
        {(id) => (
          <select id={id} value={name} onChange={(e) => setName(e.target.value)}>
            {names.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Bucket">
        {(id) => (
          <input
            id={id}
            value={bucket}
            placeholder="users"
            autoComplete="off"
            aria-describedby={problem ? hintId : undefined}
            onChange={(e) => setBucket(e.target.value)}
          />
        )}
      </Field>
      <Field label="Key prefix">
        {(id) => (
          <input
            id={id}
            value={prefix}
            placeholder="alice/"
            autoComplete="off"
            aria-describedby={problem ? hintId : undefined}
            onChange={(e) => setPrefix(e.target.value)}
          />
        )}
      </Field>
      <p className="keyv-preview">
        <span className="muted">Ability: </span>
        <code data-testid="keyv-ability">
          <Name text={ability} />
        </code>
        {name === 'keyv' || name === 'keyv.scan' ? (
          prefix ? (
            <span className="muted"> (a scan must name a prefix starting with “{prefix}”)</span>
          ) : null
        ) : null}
      </p>
      <button type="submit">Add key-value ability</button>
      {problem && (
        <p id={hintId} role="alert" className="keyv-problem">
          {problem}
        </p>
      )}
    </form>
  )
}
