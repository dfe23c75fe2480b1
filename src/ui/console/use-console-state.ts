import { useEffect, useState, type Dispatch, type SetStateAction } from 'react'
import { replaceParams, useRoute } from '../shared/router'
import { paramsOfState, stateFromParams, type ConsoleState } from './state'

/**
 * The console's form: the one value it keeps in the page URL's fragment, written there as it
 * changes (no history entries), so a reload or a shared link restores it, and the nav brings
 * it back. A fragment changed from outside (a link followed, the address edited) replaces it;
 * a bare `#/console` keeps it.
 */
export function useConsoleState(): [ConsoleState, Dispatch<SetStateAction<ConsoleState>>] {
  const route = useRoute()
  const onConsole = route.view === 'console'
  const current = route.params.toString()
  const [state, setState] = useState(() => stateFromParams(route.params))
  const [seen, setSeen] = useState(current)
  if (onConsole && current !== seen) {
    setSeen(current)
    // A bare `#/console` keeps the form; the effect below writes it back.
    if (current !== '' && current !== paramsOfState(state).toString()) {
      setState(stateFromParams(route.params))
    }
  }
  // Also after the fragment changes: a bare `#/console` gets the form written back into it.
  useEffect(() => {
    if (onConsole) replaceParams('console', paramsOfState(state))
  }, [state, onConsole, current])
  return [state, setState]
}
