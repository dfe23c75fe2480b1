import './token-select.css'
import { Field } from './field'
import { Masked } from './masked'
import { Quoted } from './quoted'
import { routeHref, useRouteParam, type ViewId } from './router'
import { defaultChoice, useTokenChoices, type TokenChoice } from './tokens'

/**
 * The token a view acts with, kept in the view's `token` parameter as a choice id (as the
 * console's links carry it); by default the first usable secret. An authorization a link
 * carries is offered even when the page does not remember it.
 */
export function useChosenToken(view: ViewId) {
  const [wanted, setWanted] = useRouteParam(view, 'token')
  const { choices, loaded } = useTokenChoices(wanted)
  const chosen =
    choices.find((choice) => choice.id === wanted) ?? defaultChoice(choices) ?? choices[0]
  return { choices, chosen, choose: setWanted, loading: !loaded }
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
                <Quoted text={`\`${ability}'`} />
              </span>
            ))}
            .{' '}
          </>
        ) : (
          'An authorization reaches only its abilities. '
        )}
        {chosen.state !== 'usable' && (
          <strong className="token-unusable">
            It is {chosen.stateText}: the engine will refuse it.{' '}
          </strong>
        )}
        <Masked value={chosen.token} label="the token in use" />
      </p>
    </div>
  )
}
