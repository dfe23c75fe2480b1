import { useSyncExternalStore } from 'react'

/**
 * The scenario loaded last, for this tab: its title and what to try, shown above the views
 * until dismissed. Kept in `sessionStorage`, so a reload keeps it and a new tab does not.
 */
export interface ActiveScenario {
  id: string
  title: string
  note: string
}

const KEY = 'playground:scenario'
const listeners = new Set<() => void>()
let cached: { raw: string | null; value: ActiveScenario | null } = { raw: null, value: null }

function read(): ActiveScenario | null {
  const raw = sessionStorage.getItem(KEY)
  if (raw !== cached.raw) {
    let value: ActiveScenario | null = null
    try {
      value = raw === null ? null : (JSON.parse(raw) as ActiveScenario)
    } catch {
      // Not ours to read: no scenario.
    }
    cached = { raw, value }
  }
  return cached.value
}

/** A scenario was just loaded: its note takes the focus once (not after a reload). */
let focusWanted = false

export function setActiveScenario(scenario: ActiveScenario | null, { focus = false } = {}): void {
  focusWanted = focus && scenario !== null
  // Written afresh even when it is the same scenario again: its note is shown anew.
  cached = { raw: null, value: null }
  if (scenario) sessionStorage.setItem(KEY, JSON.stringify(scenario))
  else sessionStorage.removeItem(KEY)
  for (const listener of listeners) listener()
}

/** Whether the note should take the focus now; asked once, by the note. */
export function takeFocusRequest(): boolean {
  const wanted = focusWanted
  focusWanted = false
  return wanted
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export const useActiveScenario = () => useSyncExternalStore(subscribe, read)
