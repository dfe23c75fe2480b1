import { useMutation, useQuery } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { secretsQuery } from '../account/queries'
import { Field } from '../field'
import { messageOf } from '../format'
import { sendCall, type CallRequest } from './api'
import { CallResponse } from './call-response'

const PASTE = 'paste'

/** Calls one endpoint over the wire and shows the response. */
export function CallPanel({ baseUrl, serviceName }: { baseUrl: string; serviceName: string }) {
  const secrets = useQuery(secretsQuery(baseUrl))
  const contentTypes = ['text/plain', 'application/json', `application/vnd.${serviceName}+json`]
  const [endpoint, setEndpoint] = useState('core.ping')
  const [tokenChoice, setTokenChoice] = useState('')
  const [pasted, setPasted] = useState('')
  const [contentType, setContentType] = useState('text/plain')
  const [accept, setAccept] = useState('')
  const [query, setQuery] = useState('')
  const [body, setBody] = useState('')
  const send = useMutation({ mutationFn: (call: CallRequest) => sendCall(baseUrl, call) })
  const live = secrets.data?.filter((secret) => secret.state !== 'expired') ?? []

  function submit(event: FormEvent) {
    event.preventDefault()
    const token = tokenChoice === PASTE ? pasted : tokenChoice
    send.mutate({ endpoint, token, contentType, accept, query, body })
  }

  return (
    <section aria-labelledby="call-heading" className="panel">
      <h2 id="call-heading">Call</h2>
      <form onSubmit={submit} className="call-form">
        <Field label="Endpoint">
          {(id) => (
            <input
              id={id}
              required
              value={endpoint}
              onChange={(e) => setEndpoint(e.target.value)}
              placeholder="type.string.reverse"
              spellCheck={false}
            />
          )}
        </Field>
        <Field label="Token">
          {(id) => (
            <select id={id} value={tokenChoice} onChange={(e) => setTokenChoice(e.target.value)}>
              <option value="">No token</option>
              {live.map((secret) => (
                <option key={secret.id} value={secret.key}>
                  Secret {secret.id} ({secret.state})
                </option>
              ))}
              <option value={PASTE}>Paste a token…</option>
            </select>
          )}
        </Field>
        {tokenChoice === PASTE && (
          <Field label="Pasted token">
            {(id) => (
              <input
                id={id}
                value={pasted}
                onChange={(e) => setPasted(e.target.value)}
                spellCheck={false}
              />
            )}
          </Field>
        )}
        <Field label="Content type">
          {(id) => (
            <select id={id} value={contentType} onChange={(e) => setContentType(e.target.value)}>
              {contentTypes.map((type) => (
                <option key={type}>{type}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Accept">
          {(id) => (
            <select id={id} value={accept} onChange={(e) => setAccept(e.target.value)}>
              <option value="">Same as the content type</option>
              {contentTypes.map((type) => (
                <option key={type}>{type}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Query string">
          {(id) => (
            <input
              id={id}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              placeholder="bucket=users&key=alice"
              spellCheck={false}
            />
          )}
        </Field>
        <Field label="Body" className="wide">
          {(id) => (
            <textarea
              id={id}
              rows={5}
              value={body}
              onChange={(e) => setBody(e.target.value)}
              spellCheck={false}
            />
          )}
        </Field>
        <div className="wide">
          <button type="submit" disabled={send.isPending}>
            Send
          </button>
        </div>
      </form>
      {send.isError && <p role="alert">Request failed: {messageOf(send.error)}</p>}
      {send.data && <CallResponse result={send.data} />}
    </section>
  )
}
