import { useId, useState, type FormEvent } from 'react'
import type { Json } from '../../engine'
import { useConfig } from '../shared/config'
import type { CallFormat } from '../shared/endpoint-call'
import { CopyButton } from '../shared/copy-button'
import { ErrorReason } from '../shared/refusal'
import { AsText, JsonField, readJson, readValue } from '../shared/json-field'
import { useAccountMutation } from '../shared/queries'
import { callProcedure } from './api'

const argsShape = (value: Json) =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? undefined
    : 'Arguments are one JSON object: {"name": value, …}.'

/** The body formats offered, as the console names them. */
const FORMATS: ReadonlyArray<[CallFormat, (serviceName: string) => string]> = [
  ['tuples', (service) => `Tuples (application/vnd.${service}+json)`],
  ['msgpack', (service) => `MessagePack tuples (application/vnd.${service}+msgpack)`],
  ['json', () => 'JSON (application/json; arguments in the query string)'],
  ['text', () => 'Text (text/plain; arguments in the query string)'],
]

/**
 * Calls `lib.<name>` with an input (JSON, or text as it is) and arguments (a JSON object), both
 * optional, in the body format chosen; shows the answer.
 */
export function CallForm({ token, name }: { token: string; name: string }) {
  const config = useConfig()
  const [inputText, setInputText] = useState('')
  const [argsText, setArgsText] = useState('')
  const [format, setFormat] = useState<CallFormat>('tuples')
  const formatId = useId()
  const input = readValue(inputText)
  const args = readJson(argsText, argsShape)
  // A procedure may write keys or procedures: what the other views show is read again.
  const call = useAccountMutation(() =>
    callProcedure(
      config,
      token,
      name,
      input.value,
      (args.value ?? {}) as Record<string, Json>,
      format,
    ),
  )

  function submit(event: FormEvent) {
    event.preventDefault()
    if (input.problem || args.problem) return
    call.mutate()
  }

  const pretty = call.data ? JSON.stringify(call.data.value, null, 2) : ''
  return (
    <form className="proc-call" onSubmit={submit} noValidate aria-label={`Call lib.${name}`}>
      <div className="proc-call-fields">
        <JsonField
          label="Input (JSON or text; empty for none)"
          text={inputText}
          onText={setInputText}
          reading={input}
          rows={2}
          placeholder="hello"
          help={input.asText ? <AsText text={inputText} /> : undefined}
        />
        <JsonField
          label="Arguments (a JSON object; empty for none)"
          text={argsText}
          onText={setArgsText}
          reading={args}
          rows={2}
          placeholder='{"mark": "!"}'
        />
        <div className="field">
          <label htmlFor={formatId}>Body format</label>
          <select
            id={formatId}
            value={format}
            onChange={(event) => setFormat(event.target.value as CallFormat)}
          >
            {FORMATS.map(([value, label]) => (
              <option key={value} value={value}>
                {label(config.serviceName)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div>
        <button type="submit" disabled={call.isPending || Boolean(input.problem || args.problem)}>
          Send
        </button>
      </div>
      {call.isError && <ErrorReason error={call.error} />}
      {call.isSuccess && (
        <div className="proc-answer">
          <p>
            Answer: <output className="ok">200 OK</output>
          </p>
          <pre aria-label={`Answer of lib.${name}`} data-testid="proc-answer">
            {pretty}
          </pre>
          <CopyButton text={pretty} label="Copy answer" />
        </div>
      )}
    </form>
  )
}
