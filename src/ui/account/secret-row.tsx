import { useId, useState, type FormEvent } from 'react'
import type { SecretState, SecretView } from '../../engine'
import { formatDuration, formatTime, messageOf } from '../format'
import { routeHref } from '../router'
import { useConfig } from '../shared/config'
import { Masked } from '../shared/masked'
import { getClock, rollSecret } from './api'
import { useAccountMutation } from './queries'

/** A secret's state at `now` (the list was read earlier; the virtual clock has moved since). */
export function stateAt(secret: SecretView, now: number | undefined): SecretState {
  if (now === undefined) return secret.state
  if (secret.expiresAt === null) return 'active'
  return secret.expiresAt > now ? 'rolling' : 'expired'
}

/** One secret, with its roll controls while it lives. */
export function SecretRow({ secret, now }: { secret: SecretView; now: number | undefined }) {
  const { baseUrl } = useConfig()
  const delayId = useId()
  const hintId = useId()
  const [delay, setDelay] = useState('60')
  const [problem, setProblem] = useState<string | null>(null)
  // The delay is counted on the engine's virtual clock, read when the roll is asked for.
  const roll = useAccountMutation(baseUrl, async (seconds: number | undefined) =>
    rollSecret(
      baseUrl,
      secret.id,
      seconds === undefined ? undefined : (await getClock(baseUrl)).now + seconds,
    ),
  )
  const state = stateAt(secret, now)

  function rollLater(event: FormEvent) {
    event.preventDefault()
    const seconds = Number(delay)
    if (delay.trim() === '' || !Number.isFinite(seconds) || seconds <= 0) {
      setProblem('Give a number of seconds above 0, or use Roll now to roll at once.')
      return
    }
    setProblem(null)
    roll.mutate(seconds)
  }

  return (
    <tr data-testid="secret-row" data-secret-id={secret.id}>
      <td>
        <code className="secret-id">{secret.id}</code>
        <Masked value={secret.key} label={`the key of ${secret.id}`} />
      </td>
      <td>
        <span className={`state state-${state}`} data-testid="secret-state">
          {state}
        </span>
      </td>
      <td className="times">
        <span>Created {formatTime(secret.createdAt)}</span>
        <span>
          {secret.expiresAt === null
            ? 'Expires never'
            : `${state === 'expired' ? 'Expired' : 'Expires'} ${formatTime(secret.expiresAt)}${
                state === 'rolling' && now !== undefined
                  ? ` (in ${formatDuration(secret.expiresAt - now)})`
                  : ''
              }`}
        </span>
        {secret.rolledTo && <span>Rolled to {secret.rolledTo}</span>}
      </td>
      <td>
        {state !== 'expired' && (
          <div className="row-actions">
            <a href={routeHref('console', { token: `secret:${secret.id}` })}>Use in console</a>
            <button type="button" disabled={roll.isPending} onClick={() => roll.mutate(undefined)}>
              Roll now
            </button>
            <form className="roll-at" onSubmit={rollLater} noValidate>
              <label htmlFor={delayId}>Seconds from now</label>
              <input
                id={delayId}
                type="number"
                min={1}
                step="any"
                value={delay}
                aria-describedby={problem ? hintId : undefined}
                aria-invalid={problem ? true : undefined}
                onChange={(event) => setDelay(event.target.value)}
              />
              <button type="submit" disabled={roll.isPending}>
                Roll at…
              </button>
            </form>
          </div>
        )}
        {problem && (
          <p id={hintId} role="alert">
            {problem}
          </p>
        )}
        {roll.isError && <p role="alert">{messageOf(roll.error)}</p>}
      </td>
    </tr>
  )
}
