import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useConfig } from '../shared/config'
import { routeHref } from '../shared/router'
import { describeFault } from './fault-words'
import { faultsQuery, rateLimitQuery, strictQuery } from './operator-api'

/** How long after the page starts the banner first asks: the first screen does not wait for it. */
const FIRST_ASK_MS = 300

/**
 * What the operator set up that changes answers — a fault armed, strict mode, the rate limit
 * enforced — said under the header in every view, not only in Settings, so that a 503 a fault
 * answers is never taken for the engine's own.
 */
export function OperatorBanner() {
  const { baseUrl } = useConfig()
  const [asking, setAsking] = useState(false)
  useEffect(() => {
    const timer = setTimeout(() => setAsking(true), FIRST_ASK_MS)
    return () => clearTimeout(timer)
  }, [])
  const faults = useQuery({
    ...faultsQuery(baseUrl),
    enabled: asking,
    // Calls use faults up: asked again while one is armed.
    refetchInterval: (query) => ((query.state.data?.length ?? 0) > 0 ? 2000 : false),
  })
  const strict = useQuery({ ...strictQuery(baseUrl), enabled: asking })
  const rate = useQuery({ ...rateLimitQuery(baseUrl), enabled: asking })
  const armed = faults.data ?? []
  const parts = [
    ...armed.map((rule) => `a fault: ${describeFault(rule)}`),
    ...(strict.data?.enabled
      ? ['strict mode: what the interface does not promise is refused']
      : []),
    ...(rate.data?.enforce
      ? [`the rate limit, enforced: ${rate.data.limit} calls per ${rate.data.windowSeconds} s`]
      : []),
  ]
  if (parts.length === 0) return null
  return (
    <div role="status" className="operator-banner" data-testid="operator-banner">
      <p>
        <strong>Set up to change answers:</strong>{' '}
        {parts.length === 1 ? (
          parts[0]
        ) : (
          <>
            {parts.slice(0, 3).join('; ')}
            {parts.length > 3 && `; and ${parts.length - 3} more`}
          </>
        )}
        . <a href={routeHref('settings')}>Settings</a> clears them.
      </p>
    </div>
  )
}
