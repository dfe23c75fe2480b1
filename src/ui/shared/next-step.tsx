import type { ReactNode } from 'react'

/**
 * What to do next, after a success or in an empty state: one sentence with the link that does
 * it. A polite status, so a screen reader hears it once.
 */
export function NextStep({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <p role="status" className="next-step" data-testid={testId}>
      {children}
    </p>
  )
}
