import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { clockQuery } from './queries'
import { useConfig } from './config'

/**
 * The engine's virtual time, in Unix seconds, ticking once a second. The engine's clock is
 * real time plus an offset, so between reads of `/_account/clock` it moves exactly as the
 * page's own clock does: the offset is read once, and again whenever the clock is moved. A
 * seeded account's clock stands still between moves.
 */
export function useNow(): number | undefined {
  const { baseUrl } = useConfig()
  const clock = useQuery(clockQuery(baseUrl))
  const [real, setReal] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setReal(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  if (!clock.data) return undefined
  // A seeded account's clock stands still: it moves only when moved (decision 086).
  if (clock.data.still) return clock.data.now
  return clock.data.now + Math.max(0, real - clock.dataUpdatedAt) / 1000
}
