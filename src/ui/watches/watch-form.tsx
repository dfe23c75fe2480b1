import { useQuery } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import type { Json, SimulateCall } from '../../engine'
import { useCatalogue } from '../shared/catalogue'
import { useConfig } from '../shared/config'
import { Field } from '../shared/field'
import { messageOf } from '../shared/format'
import { checkJson } from '../shared/json-text'
import { procedureNames, proceduresQuery, useAccountMutation } from '../shared/queries'
import { defaultChoice, useTokenChoices } from '../shared/tokens'
import { pinWatch, watchLabel } from './watches-api'

/** The call a watch makes, from what the form holds; or why it cannot be made yet. */
export function callOf(
  endpoint: string,
  fields: { bucket: string; key: string; input: string; args: string },
): { call: SimulateCall } | { problem: string } {
  const name = endpoint.trim()
  if (!/^[^\s/?#]+$/.test(name)) return { problem: 'Name the endpoint the watch calls.' }
  if (name.startsWith('keyv.')) {
    if (fields.bucket.trim() === '') return { problem: 'Give the bucket.' }
    const where = name === 'keyv.scan' ? 'prefix' : 'key'
    return {
      call: {
        endpoint: name,
        args: {
          bucket: fields.bucket,
          ...(fields.key === '' && where === 'prefix' ? {} : { [where]: fields.key }),
        },
      },
    }
  }
  const call: SimulateCall = { endpoint: name }
  if (fields.input.trim() !== '') {
    const read = checkJson(fields.input)
    // Text that is not JSON is the text it is, as the console reads it.
    call.input = read.ok ? read.value : fields.input
  }
  if (fields.args.trim() !== '') {
    const read = checkJson(fields.args)
    if (
      !read.ok ||
      typeof read.value !== 'object' ||
      read.value === null ||
      Array.isArray(read.value)
    ) {
      return { problem: 'Give the arguments as one JSON object: {"name": value, …}.' }
    }
    call.args = read.value as Record<string, Json>
  }
  return { call }
}

/**
 * Pins a watch: a token (one the page knows), whether it can or cannot make a call, and the
 * call: for a key-value endpoint its bucket and key, for any other its input and arguments.
 */
export function WatchForm() {
  const { baseUrl } = useConfig()
  const id = useId()
  const { choices } = useTokenChoices()
  const catalogue = useCatalogue()
  const procedures = useQuery({ ...proceduresQuery(baseUrl), select: procedureNames })
  const [tokenId, setTokenId] = useState('')
  const [expect, setExpect] = useState<'allowed' | 'refused'>('allowed')
  const [endpoint, setEndpoint] = useState('keyv.get')
  const [bucket, setBucket] = useState('')
  const [key, setKey] = useState('')
  const [input, setInput] = useState('')
  const [args, setArgs] = useState('')
  const [tried, setTried] = useState(false)
  const choice = choices.find((c) => c.id === tokenId) ?? defaultChoice(choices) ?? choices[0]
  const made = callOf(endpoint, { bucket, key, input, args })
  const pin = useAccountMutation((call: SimulateCall) =>
    pinWatch(baseUrl, { token: choice!.token, call, expect, label: watchLabel(choice!) }),
  )
  const keyed = endpoint.trim().startsWith('keyv.')
  const names = [
    ...(catalogue.data ?? []).map((e) => e.name),
    ...(procedures.data ?? []).map((name) => `lib.${name}`),
  ]

  function submit(event: FormEvent) {
    event.preventDefault()
    setTried(true)
    if (!choice || 'problem' in made) return
    pin.mutate(made.call, { onSuccess: () => setTried(false) })
  }

  return (
    <form className="watch-form" aria-labelledby={`${id}-heading`} onSubmit={submit} noValidate>
      <h3 id={`${id}-heading`}>Pin a watch</h3>
      <div className="watch-fields">
        <Field label="Token">
          {(field) => (
            <select
              id={field}
              value={choice?.id ?? ''}
              onChange={(event) => setTokenId(event.target.value)}
            >
              {choices.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Expect it">
          {(field) => (
            <select
              id={field}
              value={expect}
              onChange={(event) => setExpect(event.target.value as 'allowed' | 'refused')}
            >
              <option value="allowed">can make the call</option>
              <option value="refused">cannot make the call</option>
            </select>
          )}
        </Field>
        <Field label="Endpoint">
          {(field) => (
            <>
              <input
                id={field}
                list={`${id}-endpoints`}
                value={endpoint}
                spellCheck={false}
                autoCapitalize="off"
                onChange={(event) => setEndpoint(event.target.value)}
              />
              <datalist id={`${id}-endpoints`}>
                {names.map((name) => (
                  <option key={name} value={name} />
                ))}
              </datalist>
            </>
          )}
        </Field>
        {keyed ? (
          <>
            <Field label="Bucket">
              {(field) => (
                <input
                  id={field}
                  value={bucket}
                  spellCheck={false}
                  onChange={(event) => setBucket(event.target.value)}
                />
              )}
            </Field>
            <Field label={endpoint.trim() === 'keyv.scan' ? 'Prefix' : 'Key'}>
              {(field) => (
                <input
                  id={field}
                  value={key}
                  spellCheck={false}
                  onChange={(event) => setKey(event.target.value)}
                />
              )}
            </Field>
          </>
        ) : (
          <>
            <Field label="Input (JSON or text; empty for none)">
              {(field) => (
                <input
                  id={field}
                  value={input}
                  spellCheck={false}
                  onChange={(event) => setInput(event.target.value)}
                />
              )}
            </Field>
            <Field label="Arguments (a JSON object; empty for none)">
              {(field) => (
                <input
                  id={field}
                  value={args}
                  spellCheck={false}
                  placeholder='{"length": 2}'
                  onChange={(event) => setArgs(event.target.value)}
                />
              )}
            </Field>
          </>
        )}
      </div>
      <div className="send-row">
        <button
          type="submit"
          className="primary"
          aria-disabled={pin.isPending || !choice ? true : undefined}
        >
          Pin the watch
        </button>
        {tried && 'problem' in made && (
          <span role="alert" className="field-problem">
            {made.problem}
          </span>
        )}
      </div>
      {pin.isError && <p role="alert">The watch was not pinned: {messageOf(pin.error)}</p>}
    </form>
  )
}
