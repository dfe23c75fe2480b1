import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import type { SecretState, SecretView } from '../../engine'
import { getClock, rollSecret } from '../shared/api'
import { useConfig } from '../shared/config'
import { formatDuration, formatTime, messageOf } from '../shared/format'
import { Masked } from '../shared/masked'
import { useAccountMutation } from '../shared/queries'
import { routeHref } from '../shared/router'

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
  const [confirming, setConfirming] = useState(false)
  // The delay is counted on the engine's virtual clock, read when the roll is asked for.
  const roll = useAccountMutation(async (seconds: number | undefined) =>
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
            <button
              type="button"
              aria-expanded={confirming}
              disabled={roll.isPending}
              onClick={() => setConfirming(!confirming)}
            >
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
        {confirming && state !== 'expired' && (
          <RollQuestion
            id={secret.id}
            pending={roll.isPending}
            onRoll={() => roll.mutate(undefined, { onSettled: () => setConfirming(false) })}
            onCancel={() => setConfirming(false)}
          />
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

/** Rolling now cannot be undone: the old key dies at once, with what was made from it. */
function RollQuestion({
  id,
  pending,
  onRoll,
  onCancel,
}: {
  id: string
  pending: boolean
  onRoll: () => void
  onCancel: () => void
}) {
  const cancel = useRef<HTMLButtonElement>(null)
  useEffect(() => cancel.current?.focus(), [])
  return (
    <div role="group" aria-label={`Roll ${id} now?`} className="confirm roll-question">
      <p>
        Roll <code>{id}</code> now? Its key stops working at once and every authorization made from
        it dies; a new secret replaces it. This cannot be undone.
      </p>
      <button type="button" className="danger" disabled={pending} onClick={onRoll}>
        Roll it now
      </button>{' '}
      <button ref={cancel} type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  )
}
