import { useEffect, useState, type Dispatch, type SetStateAction } from 'react'
import { replaceParams, useRoute } from '../router'
import { paramsOfState, stateFromParams, type ConsoleState } from './state'

/**
 * The console's form, kept in the page URL's fragment as it changes (no history entries), so a
 * reload or a shared link restores it. A fragment changed from outside (a link followed, the
 * address edited) replaces the form.
 */
export function useConsoleState(): [ConsoleState, Dispatch<SetStateAction<ConsoleState>>] {
  const route = useRoute()
  const current = route.params.toString()
  const [state, setState] = useState(() => stateFromParams(route.params))
  const [seen, setSeen] = useState(current)
  if (current !== seen) {
    setSeen(current)
    if (current !== paramsOfState(state).toString()) setState(stateFromParams(route.params))
  }
  useEffect(() => replaceParams('console', paramsOfState(state)), [state])
  return [state, setState]
}
