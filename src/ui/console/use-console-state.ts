import { useEffect, useState, type Dispatch, type SetStateAction } from 'react'
import { replaceParams, useRoute } from '../router'
import { useConfig } from '../shared/config'
import { paramsOfState, stateFromParams, type ConsoleState } from './state'

/** The last form of each service in this page, for coming back to the console from another view. */
const lastForms = new Map<string, ConsoleState>()

/**
 * The console's form, kept in the page URL's fragment as it changes (no history entries), so a
 * reload or a shared link restores it. A fragment changed from outside (a link followed, the
 * address edited) replaces the form; a bare `#/console` (the nav) brings back the last one.
 */
export function useConsoleState(): [ConsoleState, Dispatch<SetStateAction<ConsoleState>>] {
  const { baseUrl } = useConfig()
  const route = useRoute()
  const onConsole = route.view === 'console'
  const current = route.params.toString()
  const [state, setState] = useState(
    () => (current === '' && lastForms.get(baseUrl)) || stateFromParams(route.params),
  )
  const [seen, setSeen] = useState(current)
  if (onConsole && current !== seen) {
    setSeen(current)
    // A bare `#/console` (the nav) keeps the form; the effect below writes it back.
    if (current !== '' && current !== paramsOfState(state).toString()) {
      setState(stateFromParams(route.params))
    }
  }
  // Also after the fragment changes: a bare `#/console` gets the form written back into it.
  useEffect(() => {
    lastForms.set(baseUrl, state)
    if (onConsole) replaceParams('console', paramsOfState(state))
  }, [baseUrl, state, onConsole, current])
  return [state, setState]
}
