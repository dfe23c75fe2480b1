import { useEffect, useRef } from 'react'
import { setActiveScenario, takeFocusRequest, useActiveScenario } from './scenario-store'

/**
 * The scenario loaded last, above the views: its title and what to try, until dismissed. A
 * scenario just loaded takes the focus here, so the keyboard starts from what to try rather
 * than from the page.
 */
export function ScenarioNote() {
  const scenario = useActiveScenario()
  const note = useRef<HTMLElement>(null)
  useEffect(() => {
    if (scenario && takeFocusRequest()) note.current?.focus({ preventScroll: true })
  }, [scenario])
  if (!scenario) return null
  return (
    <aside
      ref={note}
      tabIndex={-1}
      className="scenario-note"
      aria-label="Scenario"
      data-testid="scenario-note"
    >
      <p>
        <strong>Scenario: {scenario.title}.</strong> {scenario.note}
      </p>
      <button type="button" className="link" onClick={() => setActiveScenario(null)}>
        Dismiss
      </button>
    </aside>
  )
}
