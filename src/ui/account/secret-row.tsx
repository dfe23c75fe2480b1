import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import type { SecretState, SecretView } from '../../engine'
import { rollSecret } from '../shared/api'
import { useConfig } from '../shared/config'
import { toDateTimeLocal, toUnixSeconds } from '../shared/date-time'
import { formatDuration, formatTime, messageOf } from '../shared/format'
import { Masked } from '../shared/masked'
import { useAccountMutation } from '../shared/queries'
import { routeHref } from '../shared/router'
import { cancelRoll } from './roll-api'

/** A secret's state at `now` (the list was read earlier; the virtual clock has moved since). */
export function stateAt(secret: SecretView, now: number | undefined): SecretState {
  if (now === undefined) return secret.state
  if (secret.expiresAt === null) return 'active'
  return secret.expiresAt > now ? 'rolling' : 'expired'
}

/** `2 authorizations made here` (what the page knows of: others may have been made elsewhere). */
export const authorizationsText = (count: number) =>
  `${count} ${count === 1 ? 'authorization' : 'authorizations'} made here`

/** A time typed as UTC, `2026-11-30 14:05:00` (or with a `T`, or without seconds). */
const readUtc = (text: string) => toUnixSeconds(text.trim().replace(' ', 'T'), 'utc')

/** A usable authorization the page remembers, that dies with its secret. */
export interface Descendant {
  abilities: readonly string[]
  /** Unix seconds on the virtual clock; `null` for none. */
  expiresAt: number | null
}

/** An authorization as the menus name it: `[keyv.get?bucket=users, type]`. */
const nameOf = (descendant: Descendant) => `[${descendant.abilities.join(', ')}]`

/**
 * What a roll at `at` ends: the authorizations still alive then (named), and those that expire
 * before it (they die of their own expiry first, so the roll does not end them).
 */
export function rollEnds(descendants: readonly Descendant[], at: number) {
  const dies = descendants.filter((d) => d.expiresAt === null || d.expiresAt > at)
  const first = descendants.filter((d) => d.expiresAt !== null && d.expiresAt <= at)
  return { dies, first }
}

/** The authorizations a roll ends, in one sentence: how many, and which. */
function endsText(descendants: readonly Descendant[], at: number, when: string): string {
  const { dies, first } = rollEnds(descendants, at)
  const named = (list: readonly Descendant[]) => list.map(nameOf).join(', ')
  const dying =
    dies.length === 0
      ? `No authorization made here ${when === 'now' ? 'would die' : 'dies'} with it`
      : `${authorizationsText(dies.length)} ${when === 'now' ? 'would die' : dies.length === 1 ? 'dies' : 'die'} with it: ${named(dies)}`
  const before =
    first.length === 0
      ? ''
      : `; ${named(first)} ${first.length === 1 ? 'expires' : 'expire'} before it, on ${first.length === 1 ? 'its' : 'their'} own`
  return `${dying}${before}.`
}

/**
 * One secret, with its roll controls while it lives: roll now (asked first), roll at a moment
 * on the virtual clock (a date-time picker, in UTC as the clock shows it), or cancel a roll
 * that is scheduled. `kills` is how many authorizations the page knows of descend from it:
 * they die with it. Only the latest problem or refusal is shown.
 */
export function SecretRow({
  secret,
  now,
  descendants,
}: {
  secret: SecretView
  now: number | undefined
  descendants: readonly Descendant[]
}) {
  const { baseUrl } = useConfig()
  const atId = useId()
  const hintId = useId()
  // Untouched, the moment to roll at is an hour ahead on the virtual clock.
  const [at, setAt] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const roll = useAccountMutation((when: number | undefined) =>
    rollSecret(baseUrl, secret.id, when),
  )
  const cancel = useAccountMutation(() => cancelRoll(baseUrl, secret.id))
  const state = stateAt(secret, now)
  const pending = roll.isPending || cancel.isPending
  // Written as UTC in 24 hours with seconds (`2026-11-30 14:05:00`), however the browser
  // would draw a date-time field in its own locale.
  const shownAt =
    at ?? (now === undefined ? '' : toDateTimeLocal(now + 3600, 'utc').replace('T', ' '))

  function clearMessages() {
    setProblem(null)
    roll.reset()
    cancel.reset()
  }

  function rollLater(event: FormEvent) {
    event.preventDefault()
    clearMessages()
    const seconds = readUtc(shownAt)
    if (seconds === undefined) {
      return setProblem('Give a date and time to roll at, in UTC, as 2026-11-30 14:05:00.')
    }
    if (now !== undefined && seconds <= now) {
      return setProblem(
        `${formatTime(seconds)} has passed on the virtual clock (now ${formatTime(now)}): choose a later moment, or use Roll now.`,
      )
    }
    roll.mutate(seconds)
  }

  const endingNow = now === undefined ? descendants : rollEnds(descendants, now).dies
  const dies =
    endingNow.length > 0
      ? `, and with it the ${authorizationsText(endingNow.length)} that descend from it (${endingNow.map(nameOf).join(', ')})`
      : ''
  const chosenAt = readUtc(shownAt)

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
        {state !== 'expired' && (
          <span className="muted secret-kills" data-testid="secret-kills">
            {descendants.length === 0
              ? 'No authorization made here descends from it.'
              : state === 'rolling' && secret.expiresAt !== null
                ? endsText(descendants, secret.expiresAt, 'at its roll')
                : endsText(descendants, now ?? 0, 'now')}
          </span>
        )}
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
              disabled={pending}
              onClick={() => {
                clearMessages()
                setConfirming(!confirming)
              }}
            >
              Roll now
            </button>
            {state === 'rolling' && (
              <button
                type="button"
                disabled={pending}
                onClick={() => {
                  clearMessages()
                  cancel.mutate()
                }}
              >
                Cancel the roll
              </button>
            )}
            <form className="roll-at" onSubmit={rollLater} noValidate>
              <label htmlFor={atId}>Roll at (UTC, 24 h)</label>
              <input
                id={atId}
                type="text"
                inputMode="numeric"
                spellCheck={false}
                autoComplete="off"
                placeholder="2026-11-30 14:05:00"
                size={19}
                value={shownAt}
                aria-describedby={`${atId}-ends${problem ? ` ${hintId}` : ''}`}
                aria-invalid={problem ? true : undefined}
                onChange={(event) => setAt(event.target.value)}
                // The offer follows the clock until a person is in the field; from then it holds
                // still, or the tick would move the text under their selection and their typing.
                onFocus={() => setAt((typed) => typed ?? (shownAt === '' ? null : shownAt))}
              />
              <button type="submit" disabled={pending}>
                Roll at…
              </button>
              <span id={`${atId}-ends`} className="muted roll-at-ends" data-testid="roll-at-ends">
                {chosenAt !== undefined && (now === undefined || chosenAt > now)
                  ? endsText(descendants, chosenAt, 'then')
                  : ''}
              </span>
            </form>
          </div>
        )}
        {confirming && state !== 'expired' && (
          <RollQuestion
            id={secret.id}
            dies={dies}
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
        {cancel.isError && <p role="alert">{messageOf(cancel.error)}</p>}
      </td>
    </tr>
  )
}

/** Rolling now cannot be undone: the old key dies at once, with what was made from it. */
function RollQuestion({
  id,
  dies,
  pending,
  onRoll,
  onCancel,
}: {
  id: string
  /** `, and with it the 2 authorizations made here that descend from it`, or nothing. */
  dies: string
  pending: boolean
  onRoll: () => void
  onCancel: () => void
}) {
  const cancel = useRef<HTMLButtonElement>(null)
  useEffect(() => cancel.current?.focus(), [])
  return (
    <div role="group" aria-label={`Roll ${id} now?`} className="confirm roll-question">
      <p>
        Roll <code>{id}</code> now? Its key stops working at once{dies}; every authorization made
        from it elsewhere dies too, and a new secret replaces it. This cannot be undone.
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
