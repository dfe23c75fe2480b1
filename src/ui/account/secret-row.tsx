import { useId, useState } from 'react'
import type { SecretView } from '../../engine'
import { formatTime, messageOf } from '../format'
import { getClock, rollSecret } from './api'
import { useAccountMutation } from './queries'

/** One secret, with its roll controls while it lives. */
export function SecretRow({ baseUrl, secret }: { baseUrl: string; secret: SecretView }) {
  const delayId = useId()
  const [delay, setDelay] = useState('60')
  // The delay is counted on the engine's virtual clock, read when the roll is asked for.
  const roll = useAccountMutation(baseUrl, async (seconds: number | undefined) =>
    rollSecret(
      baseUrl,
      secret.id,
      seconds === undefined ? undefined : (await getClock(baseUrl)).now + seconds,
    ),
  )
  const seconds = Number(delay)

  return (
    <tr data-testid="secret-row" data-secret-id={secret.id}>
      <td>
        <code className="secret-id">{secret.id}</code>
        <code className="secret-key" title={secret.key}>
          {secret.key}
        </code>
      </td>
      <td>
        <span className={`state state-${secret.state}`} data-testid="secret-state">
          {secret.state}
        </span>
      </td>
      <td className="times">
        <span>Created {formatTime(secret.createdAt)}</span>
        <span>Expires {secret.expiresAt === null ? 'never' : formatTime(secret.expiresAt)}</span>
      </td>
      <td>
        {secret.state !== 'expired' && (
          <div className="row-actions">
            <button type="button" disabled={roll.isPending} onClick={() => roll.mutate(undefined)}>
              Roll now
            </button>
            <label htmlFor={delayId}>Seconds from now</label>
            <div className="roll-at">
              <input
                id={delayId}
                type="number"
                min={0}
                step="any"
                value={delay}
                onChange={(event) => setDelay(event.target.value)}
              />
              <button
                type="button"
                disabled={roll.isPending || delay === '' || !(seconds >= 0)}
                onClick={() => roll.mutate(seconds)}
              >
                Roll at…
              </button>
            </div>
          </div>
        )}
        {roll.isError && <p role="alert">{messageOf(roll.error)}</p>}
      </td>
    </tr>
  )
}
