import { useRef, useState, type FormEvent } from 'react'
import { Field } from '../shared/field'
import { useConfig } from '../shared/config'
import { Name } from '../shared/quoted'
import { ErrorReason } from '../shared/refusal'
import { AsText, JsonField, readValue } from '../shared/json-field'
import { setValue } from './api'
import { useAccountMutation } from '../shared/queries'
import { keyvAbility } from '../shared/abilities'
import { routeHref } from '../shared/router'

/**
 * Adds a key to the open bucket through `keyv.set`. Its value is read as it is typed: JSON when
 * it is JSON, other text as the text it is (and said so), as a person means `hello`.
 */
export function AddKeyForm({ token, bucket }: { token: string; bucket: string }) {
  const config = useConfig()
  const [key, setKey] = useState('')
  const [text, setText] = useState('')
  const [tried, setTried] = useState(false)
  const [saved, setSaved] = useState<{ key: string; bucket: string } | null>(null)
  const form = useRef<HTMLFormElement>(null)
  const save = useAccountMutation((value: Parameters<typeof setValue>[2]) =>
    setValue(config, token, value),
  )
  const reading = readValue(text)
  const keyProblem = tried && key === '' ? 'Give the key a name.' : null
  const shown =
    tried && reading.empty
      ? {
          ...reading,
          problem: 'Write the value: text, or JSON such as 42, true or {"name": "Ada"}.',
        }
      : reading

  function submit(event: FormEvent) {
    event.preventDefault()
    setTried(true)
    setSaved(null)
    if (key === '' || reading.value === undefined) {
      form.current?.querySelector<HTMLElement>(key === '' ? 'input' : 'textarea')?.focus()
      return
    }
    const value = { bucket, key, value: reading.value }
    save.mutate(value, {
      onSuccess: () => {
        setSaved({ key, bucket })
        setKey('')
        setText('')
        setTried(false)
      },
    })
  }

  return (
    <form
      ref={form}
      className="keyv-add"
      aria-labelledby="keyv-add-heading"
      onSubmit={submit}
      noValidate
    >
      <h3 id="keyv-add-heading">
        Add a key to{' '}
        <code className="bucket-title">
          <Name text={bucket} />
        </code>
      </h3>
      <Field label="Key">
        {(id) => (
          <>
            <input
              id={id}
              value={key}
              placeholder="alice"
              aria-invalid={keyProblem ? true : undefined}
              aria-describedby={keyProblem ? `${id}-problem` : undefined}
              onChange={(event) => setKey(event.target.value)}
            />
            {keyProblem && (
              <p id={`${id}-problem`} className="keyv-problem">
                {keyProblem}
              </p>
            )}
          </>
        )}
      </Field>
      <JsonField
        label="Value (JSON or text)"
        text={text}
        onText={setText}
        reading={shown}
        placeholder='{"name": "Ada", "admin": false}'
        help={
          reading.asText ? (
            <AsText text={text} verb="saved" />
          ) : (
            'Any JSON value (a number, true, false, null, a string in double quotes, an array or an object), or text as it is. A key that exists already gets the new value.'
          )
        }
      />
      <div>
        <button type="submit" disabled={save.isPending}>
          Save key
        </button>
      </div>
      {save.isError && <ErrorReason error={save.error} />}
      {saved && (
        <p role="status" className="keyv-saved">
          Saved{' '}
          <code>
            <Name text={saved.key} />
          </code>{' '}
          in{' '}
          <code>
            <Name text={saved.bucket} />
          </code>
          . Next:{' '}
          <a href={routeHref('authorizations', { ability: keyvAbility('keyv.get', saved) })}>
            compose an authorization
          </a>{' '}
          that may read only this bucket, and act with it here to see what it reaches.
        </p>
      )}
    </form>
  )
}
