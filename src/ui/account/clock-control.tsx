import { useQuery } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { formatTime, messageOf } from '../format'
import { advanceClock } from './api'
import { clockQuery, useAccountMutation } from './queries'

/** The engine's virtual clock, which expiry and scheduled rolls follow, and a way to move it. */
export function ClockControl({ baseUrl }: { baseUrl: string }) {
  const clock = useQuery(clockQuery(baseUrl))
  const [seconds, setSeconds] = useState('60')
  const advance = useAccountMutation(baseUrl, (by: number) => advanceClock(baseUrl, by))

  function submit(event: FormEvent) {
    event.preventDefault()
    advance.mutate(Number(seconds))
  }

  return (
    <section aria-labelledby="clock-heading" className="clock">
      <h3 id="clock-heading">Virtual clock</h3>
      <p>
        Now:{' '}
        <output data-testid="clock-now">{clock.data ? formatTime(clock.data.now) : '…'}</output>
      </p>
      <form onSubmit={submit} className="inline-form">
        <label>
          Advance by (seconds)
          <input
            type="number"
            min={0}
            step="any"
            required
            value={seconds}
            onChange={(e) => setSeconds(e.target.value)}
          />
        </label>
        <button type="submit" disabled={advance.isPending}>
          Advance clock
        </button>
      </form>
      {clock.isError && <p role="alert">{messageOf(clock.error)}</p>}
      {advance.isError && <p role="alert">{messageOf(advance.error)}</p>}
    </section>
  )
}
