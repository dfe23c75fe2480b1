import { useActiveScenario, setActiveScenario } from './scenario-store'

/** The scenario loaded last, above the views: its title and what to try, until dismissed. */
export function ScenarioNote() {
  const scenario = useActiveScenario()
  if (!scenario) return null
  return (
    <aside className="scenario-note" aria-label="Scenario" data-testid="scenario-note">
      <p>
        <strong>Scenario: {scenario.title}.</strong> {scenario.note}
      </p>
      <button type="button" className="link" onClick={() => setActiveScenario(null)}>
        Dismiss
      </button>
    </aside>
  )
}
