import { useId, useState } from 'react'
import type { ExchangeRecord } from '../../engine'
import { mask } from '../shared/masked'
import { routeHref } from '../shared/router'
import { useTokenChoices } from '../shared/tokens'
import { consoleLink, sentChoice } from './console-link'

/**
 * Opens an exchange's request in the Console, to send it again: its endpoint, body and format,
 * with the token it was sent with or another one chosen here (after a fix, the new token).
 */
export function OpenInConsole({ record }: { record: ExchangeRecord }) {
  const id = useId()
  const sent = sentChoice(record)
  const { choices } = useTokenChoices(sent)
  const [chosen, setChosen] = useState(sent ?? '')
  const { params, notes } = consoleLink(record, chosen || undefined)
  return (
    <div className="log-reopen" data-testid="open-in-console">
      <label htmlFor={id}>Send it again with</label>
      <select id={id} value={chosen} onChange={(event) => setChosen(event.target.value)}>
        {sent === undefined && <option value="">the first usable secret</option>}
        {sent === 'none' && <option value="none">no token, as sent</option>}
        {sent !== undefined && sent !== 'none' && !choices.some((choice) => choice.id === sent) && (
          <option value={sent}>
            {sent.startsWith('secret:')
              ? `Secret ${sent.slice('secret:'.length)}, as sent`
              : `Authorization ${mask(sent.slice('authorization:'.length))}, as sent`}
          </option>
        )}
        {choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.id === sent ? `${choice.label}, as sent` : choice.label}
          </option>
        ))}
      </select>
      <a href={routeHref('console', params)}>Open in the console</a>
      {sent === undefined && (
        <p className="muted">
          It was sent with a token this page cannot name (unknown, or not a bearer token): choose
          one.
        </p>
      )}
      {notes.map((note) => (
        <p key={note} className="muted">
          {note}
        </p>
      ))}
    </div>
  )
}
