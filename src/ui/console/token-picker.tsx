import { useId, useState } from 'react'
import { mask } from '../shared/masked'
import { defaultChoice, type TokenChoice } from '../shared/tokens'
import { NO_TOKEN, PASTE } from './state'

/** The token a choice sends, and what the menu shows for it. */
export interface ResolvedToken {
  /** The choice the menu shows: `id`, or the default when none was chosen. */
  id: string
  token: string
  /** The menu's entry when the choice is not (or not yet) among the account's. */
  orphanLabel?: string
  /** Said under the menu: why this token will not get in, or where it came from. */
  note?: string
}

/**
 * Resolves a choice by its stable id, never by position or token: after a roll the menu still
 * names the rolled secret (expired), and Send sends exactly that secret's key.
 */
export function resolveToken(
  id: string,
  pasted: string,
  choices: readonly TokenChoice[],
  loaded: boolean,
): ResolvedToken {
  if (id === NO_TOKEN) return { id, token: '' }
  if (id === PASTE) return { id, token: pasted.trim() }
  if (id === '') {
    const first = defaultChoice(choices)
    if (first) return { id: first.id, token: first.token }
    return loaded
      ? { id: NO_TOKEN, token: '', note: 'No usable secret yet: the request goes without a token.' }
      : { id: '', token: '', orphanLabel: 'Loading secrets…' }
  }
  const choice = choices.find((c) => c.id === id)
  if (choice) {
    const note =
      choice.state === 'usable' || choice.state === 'unknown'
        ? choice.fromLink
          ? 'This authorization came with the link; it is not among those this page remembers.'
          : undefined
        : `This ${choice.kind} is ${choice.stateText}: the engine will refuse it with 401.`
    return { id, token: choice.token, ...(note ? { note } : {}) }
  }
  if (id.startsWith('authorization:')) {
    const token = id.slice('authorization:'.length)
    return {
      id,
      token,
      orphanLabel: `Authorization ${mask(token)} (from the link)`,
      note: 'This authorization came with the link; it is not among those this page remembers.',
    }
  }
  const secretId = id.slice('secret:'.length)
  return loaded
    ? {
        id,
        token: '',
        orphanLabel: `Secret ${secretId} (not in this account)`,
        note: `There is no secret ${secretId} in this account: the request goes without a token.`,
      }
    : { id, token: '', orphanLabel: `Secret ${secretId} (loading…)` }
}

/**
 * The token menu: every secret and remembered authorization with its state, or one pasted by
 * hand. The pasted token's field has its place kept in the row, so choosing it moves nothing.
 */
export function TokenPicker({
  value,
  pasted,
  choices,
  resolved,
  onChange,
}: {
  value: string
  pasted: string
  choices: readonly TokenChoice[]
  resolved: ResolvedToken
  onChange: (change: { token?: string; pasted?: string }) => void
}) {
  const id = useId()
  const [revealed, setRevealed] = useState(false)
  const pasting = value === PASTE
  return (
    <div className="token-picker">
      <div className={`token-row${pasting ? '' : ' is-idle'}`}>
        <div className="field">
          <label htmlFor={id}>Token</label>
          <select
            id={id}
            value={resolved.id}
            aria-describedby={resolved.note ? `${id}-note` : undefined}
            onChange={(event) => onChange({ token: event.target.value })}
          >
            <option value={NO_TOKEN}>No token</option>
            {choices.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.label}
              </option>
            ))}
            {resolved.orphanLabel && <option value={resolved.id}>{resolved.orphanLabel}</option>}
            <option value={PASTE}>Paste a token…</option>
          </select>
        </div>
        <div className="field token-paste" inert={!pasting}>
          <label htmlFor={`${id}-paste`}>Pasted token</label>
          <div className="token-paste-row">
            <input
              id={`${id}-paste`}
              type={revealed ? 'text' : 'password'}
              autoComplete="off"
              spellCheck={false}
              value={pasted}
              placeholder="a secret key or an authorization"
              onChange={(event) => onChange({ pasted: event.target.value })}
            />
            <button
              type="button"
              className="link"
              aria-pressed={revealed}
              aria-label={`${revealed ? 'Hide' : 'Reveal'} the pasted token`}
              onClick={() => setRevealed(!revealed)}
            >
              {revealed ? 'Hide' : 'Reveal'}
            </button>
          </div>
        </div>
      </div>
      {resolved.note && (
        <p id={`${id}-note`} className="token-note">
          {resolved.note}
        </p>
      )}
    </div>
  )
}
