import { useId } from 'react'
import { Field } from '../shared/field'
import { formatDuration, formatTime } from '../shared/format'
import {
  toDateTimeLocal,
  toUnixSeconds,
  type Composition,
  type Planned,
  type Zone,
} from './compose'

const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time'

/**
 * When the authorization ends: an `expiry` on the virtual clock (sent as Unix seconds) and/or
 * a `ttl` in seconds. With both, the earlier moment wins.
 */
export function ExpiryFields({
  composition,
  planned,
  now,
  onChange,
}: {
  composition: Composition
  planned: Planned
  now: number | undefined
  onChange: (patch: Partial<Composition>) => void
}) {
  const zoneName = useId()
  const { expiry, zone, ttl } = composition

  function setZone(next: Zone) {
    // The same moment, written in the other zone.
    const seconds = toUnixSeconds(expiry, zone)
    onChange({
      zone: next,
      ...(seconds === undefined ? {} : { expiry: toDateTimeLocal(seconds, next) }),
    })
  }

  return (
    <fieldset className="expiry">
      <legend>When it ends</legend>
      <div className="expiry-row">
        <Field label={`Expiry (${zone === 'utc' ? 'UTC' : localZone()})`}>
          {(id) => (
            <input
              id={id}
              type="datetime-local"
              step={1}
              value={expiry}
              onChange={(e) => onChange({ expiry: e.target.value })}
            />
          )}
        </Field>
        <div className="expiry-zone" role="radiogroup" aria-label="Read the expiry as">
          <label>
            <input
              type="radio"
              name={zoneName}
              checked={zone === 'utc'}
              onChange={() => setZone('utc')}
            />
            UTC
          </label>
          <label>
            <input
              type="radio"
              name={zoneName}
              checked={zone === 'local'}
              onChange={() => setZone('local')}
            />
            Local ({localZone()})
          </label>
        </div>
        <div className="expiry-quick">
          <button
            type="button"
            disabled={now === undefined}
            onClick={() =>
              now !== undefined && onChange({ expiry: toDateTimeLocal(now + 3600, zone) })
            }
          >
            Now + 1 h
          </button>
          {expiry && (
            <button type="button" className="link" onClick={() => onChange({ expiry: '' })}>
              Clear expiry
            </button>
          )}
        </div>
      </div>
      {planned.expiry !== undefined && (
        <p className="muted" data-testid="expiry-seconds">
          Sent as <code>expiry: {planned.expiry}</code> (Unix seconds) ={' '}
          {formatTime(planned.expiry)}
          {now !== undefined && `, in ${formatDuration(planned.expiry - now)} on the virtual clock`}
          .
        </p>
      )}
      <Field label="Time to live (seconds)" className="ttl">
        {(id) => (
          <input
            id={id}
            type="number"
            min={1}
            step="any"
            inputMode="numeric"
            value={ttl}
            placeholder="3600"
            onChange={(e) => onChange({ ttl: e.target.value })}
          />
        )}
      </Field>
      <p className="muted">
        Both are optional; without either it never expires (it still dies with its secret). With
        both, the earlier of the two wins.
        {planned.endsAt !== undefined &&
          ` It would expire at ${formatTime(planned.endsAt)}${
            planned.expiry !== undefined && planned.ttl !== undefined
              ? `: the ${planned.endsAt === planned.expiry ? 'expiry' : 'time to live'} comes first`
              : ''
          }.`}
      </p>
    </fieldset>
  )
}
