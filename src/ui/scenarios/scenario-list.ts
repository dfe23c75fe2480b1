/**
 * The starter scenarios, as the page lists them: small stories a newcomer loads into the
 * account in one click. What each one does is in `loaders.ts`, loaded when one is chosen.
 */
export interface ScenarioInfo {
  id: ScenarioId
  title: string
  /** One line, before it is loaded. */
  summary: string
}

export type ScenarioId = 'notes' | 'expiring' | 'leaked' | 'procedures' | 'refusals'

export const SCENARIOS: ScenarioInfo[] = [
  {
    id: 'notes',
    title: "A browser token for one user's notes",
    summary:
      "Alice's notes and Bob's in one bucket, and an authorization that reaches only keys under alice/: what a browser would hold.",
  },
  {
    id: 'expiring',
    title: 'A token that expires',
    summary:
      'An authorization with a ttl of five minutes, and the virtual clock to watch it expire.',
  },
  {
    id: 'leaked',
    title: 'Rolling a leaked secret',
    summary:
      'A secret with two authorizations made from it, rolled an hour from now: what dies, and when.',
  },
  {
    id: 'procedures',
    title: 'Stored procedures',
    summary:
      'Two stored procedures, and an authorization that may call one of them and nothing else.',
  },
  {
    id: 'refusals',
    title: 'Why was I refused',
    summary:
      'Three calls refused for three reasons: no ability, outside a key-value limit, expired.',
  },
]
