import './token-select.css'
import { useQuery } from '@tanstack/react-query'
import { secretsQuery } from '../account/queries'
import { replaceParams, routeHref, useRoute, type ViewId } from '../router'
import { useConfig } from './config'
import { Field } from '../field'
import { Masked } from './masked'
import { useTokenChoices, type TokenChoice } from './tokens'

/**
 * The token a view acts with, kept in the view's `token` parameter as a choice id (as the
 * console's links carry it); by default the first usable secret.
 */
export function useChosenToken(view: ViewId) {
  const { params } = useRoute()
  const { baseUrl } = useConfig()
  const loading = useQuery(secretsQuery(baseUrl)).isPending
  const choices = useTokenChoices()
  const wanted = params.get('token')
  const chosen =
    choices.find((choice) => choice.id === wanted) ??
    choices.find((choice) => choice.kind === 'secret' && choice.state === 'usable') ??
    choices[0]
  function choose(id: string) {
    const next = new URLSearchParams(params)
    next.set('token', id)
    replaceParams(view, next)
  }
  return { choices, chosen, choose, loading }
}

/** Picks the token a view acts with, and says what it reaches. */
export function TokenSelect({
  choices,
  chosen,
  onChoose,
  loading = false,
}: {
  choices: TokenChoice[]
  chosen: TokenChoice | undefined
  onChoose: (id: string) => void
  loading?: boolean
}) {
  if (!chosen && loading) return <p className="muted">Loading secrets…</p>
  if (!chosen) {
    return (
      <p className="empty">
        No secret yet: <a href={routeHref('secrets')}>create one in Secrets</a> to act with it.
      </p>
    )
  }
  const abilities = chosen.report?.details?.abilities
  return (
    <div className="token-select">
      <Field label="Act with">
        {(id) => (
          <select id={id} value={chosen.id} onChange={(event) => onChoose(event.target.value)}>
            {choices.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <p className="muted token-reach">
        {chosen.kind === 'secret' ? (
          'A secret key reaches every endpoint and every key. '
        ) : abilities ? (
          <>
            This authorization reaches only:{' '}
            {abilities.map((ability, i) => (
              <span key={ability}>
                {i > 0 && ', '}
                <code>{ability}</code>
              </span>
            ))}
            .{' '}
          </>
        ) : (
          'An authorization reaches only its abilities. '
        )}
        {chosen.state !== 'usable' && (
          <strong className="token-unusable">
            It is {chosen.state}: the engine will refuse it.{' '}
          </strong>
        )}
        <Masked value={chosen.token} label="the token in use" />
      </p>
    </div>
  )
}
