import { useId, useState, type FormEvent } from 'react'
import { advanceClock } from '../shared/api'
import { useNow } from '../shared/clock'
import { useConfig } from '../shared/config'
import { formatDuration, formatTime, isoTime, messageOf } from '../shared/format'
import { useAccountMutation } from '../shared/queries'
import { useNextEvent } from './next-event'

const STEPS = [
  { seconds: 60, label: '+1 min', name: 'Advance 1 minute' },
  { seconds: 3600, label: '+1 h', name: 'Advance 1 hour' },
  { seconds: 86400, label: '+1 day', name: 'Advance 1 day' },
]

/**
 * The engine's virtual clock, always in view: expiry and scheduled rolls follow it. It ticks
 * with real time, and moves ahead by a step, by any number of seconds, or to the next thing
 * due (a scheduled roll or an authorization's expiry).
 */
export function ClockBar() {
  const { baseUrl } = useConfig()
  const now = useNow()
  const next = useNextEvent(now)
  const [seconds, setSeconds] = useState('60')
  const [open, setOpen] = useState(false)
  const controlsId = useId()
  const advance = useAccountMutation((by: number) => advanceClock(baseUrl, by))

  function submit(event: FormEvent) {
    event.preventDefault()
    if (!advance.isPending) advance.mutate(Number(seconds))
  }
  const nextLabel =
    next && now !== undefined
      ? `Next: ${next.what} (in ${formatDuration(next.at - now)})`
      : 'Nothing scheduled'

  return (
    <section aria-label="Virtual clock" className="clock-bar">
      <p className="clock-now">
        <span className="muted">Now</span>{' '}
        {/* Not a live region: a clock announced every second would drown everything else. */}
        <time data-testid="clock-now" dateTime={now === undefined ? undefined : isoTime(now)}>
          {now === undefined ? '…' : formatTime(now)}
        </time>
      </p>
      {/* Below 480 px the controls fold under this button (app.css), the time stays. */}
      <button
        type="button"
        className="clock-fold"
        aria-expanded={open}
        aria-controls={controlsId}
        onClick={() => setOpen(!open)}
      >
        Move the clock
      </button>
      <div id={controlsId} className="clock-controls" data-open={open ? 'true' : undefined}>
        <div className="clock-steps">
          {STEPS.map((step) => (
            <button
              key={step.seconds}
              type="button"
              aria-label={step.name}
              // Never disabled while it moves: the focus would drop out of the page.
              aria-disabled={advance.isPending ? true : undefined}
              onClick={() => !advance.isPending && advance.mutate(step.seconds)}
            >
              {step.label}
            </button>
          ))}
          <button
            type="button"
            className="clock-next"
            aria-disabled={advance.isPending || !next || now === undefined ? true : undefined}
            title={next ? `${next.what} at ${formatTime(next.at)}` : 'Nothing is scheduled'}
            aria-label={nextLabel}
            onClick={() =>
              !advance.isPending &&
              next &&
              now !== undefined &&
              advance.mutate(next.at - now + 0.001)
            }
          >
            {/* A long name is cut to the width there is (app.css); the label says it whole. */}
            <span className="clock-next-text">{nextLabel}</span>
          </button>
        </div>
        <form onSubmit={submit} className="inline-form clock-advance">
          <label>
            Advance by (seconds)
            <input
              type="number"
              min={0}
              step="any"
              required
              value={seconds}
              onChange={(e) => {
                setSeconds(e.target.value)
                // A refusal of the last move does not stay beside a value it was not about.
                advance.reset()
              }}
            />
          </label>
          <button type="submit" aria-disabled={advance.isPending ? true : undefined}>
            Advance clock
          </button>
        </form>
      </div>
      {advance.isError && <p role="alert">{messageOf(advance.error)}</p>}
    </section>
  )
}
