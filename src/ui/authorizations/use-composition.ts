import { useEffect, useState, type Dispatch, type SetStateAction } from 'react'
import { parseRoute, replaceParams, routeHref, useRoute } from '../shared/router'
import { compositionFromParams, compositionToParams, type Composition } from './compose'

/** The parameters the composer's form writes; the view's others are not its own. */
const COMPOSER_PARAMS = new Set([
  'ability',
  'insecure',
  'expiry',
  'zone',
  'ttl',
  'format',
  'signer',
])

/** The composer's part of the view's parameters, as one comparable string. */
const composerPart = (params: URLSearchParams) =>
  new URLSearchParams([...params].filter(([name]) => COMPOSER_PARAMS.has(name))).toString()

/**
 * The composer's form and its signer: the one value the view keeps in the URL
 * (`#/authorizations?ability=type&ttl=60&signer=secret:sec_1`), read when the view opens and
 * written as it changes, so the nav and a shared link bring it back; a link followed while the
 * view is open (a counterfactual's "compose with this ability") fills it too. A secret's id may
 * travel in the URL; an authorization, a token itself, may not. The view's other parameters
 * (the token inspected, the tokens compared) are left as they are.
 */
export function useComposition(): {
  composition: Composition
  setComposition: Dispatch<SetStateAction<Composition>>
  signerId: string | undefined
  setSignerId: (id: string) => void
} {
  const route = useRoute()
  const { params } = route
  const [composition, setComposition] = useState<Composition>(() => compositionFromParams(params))
  const [signerId, setSignerId] = useState(() => params.get('signer') ?? undefined)
  useEffect(() => {
    const next = ownParams(composition, signerId)
    const current = parseRoute(window.location.hash)
    if (current.view === 'authorizations') {
      for (const [name, value] of current.params) {
        if (!COMPOSER_PARAMS.has(name)) next.append(name, value)
      }
    }
    replaceParams('authorizations', next)
  }, [composition, signerId])
  // The URL changed by a link, not by the form (which writes what its state says): the form
  // follows it.
  const here = route.view === 'authorizations' ? composerPart(params) : null
  const [seen, setSeen] = useState(here)
  if (here !== null && here !== seen) {
    setSeen(here)
    if (here !== composerPart(ownParams(composition, signerId))) {
      const linked = new URLSearchParams(here)
      setComposition(compositionFromParams(linked))
      const signer = linked.get('signer')
      if (signer) setSignerId(signer)
      // A fix from a refused token names its signer, or none when its own no longer signs: a
      // signer chosen before (a secret rolled since) is not kept for it.
      else if (params.get('from') === 'refused') setSignerId(undefined)
    }
  }
  return { composition, setComposition, signerId, setSignerId }
}

/** What the form writes into the URL. */
function ownParams(composition: Composition, signerId: string | undefined): URLSearchParams {
  const params = compositionToParams(composition)
  if (signerId?.startsWith('secret:')) params.set('signer', signerId)
  return params
}

/** Where a composition came from (`from=refused`, the refused token's abilities as `was`). */
export const ORIGIN_PARAMS = new Set(['from', 'was'])

/**
 * A link, within the Authorizations view, that fills the composer with `composition` (the
 * composer's parameters, and where they came from), keeping the view's other parameters.
 */
export function useComposeHref(): (composition: URLSearchParams) => string {
  const { view, params } = useRoute()
  return (composition) => {
    const next = new URLSearchParams(
      view === 'authorizations'
        ? [...params].filter(([name]) => !COMPOSER_PARAMS.has(name) && !ORIGIN_PARAMS.has(name))
        : [],
    )
    for (const [name, value] of composition) next.append(name, value)
    return routeHref('authorizations', next)
  }
}

/**
 * A link, within the Authorizations view, that fills the composer with `auth.create`'s
 * arguments as a whole (every ability, `insecure`, the ttl): what "tighten to what was used"
 * puts into it. The view's other parameters (the token inspected) are kept.
 */
export function useComposeArgsHref(): (args: {
  abilities: readonly string[]
  insecure?: boolean
  ttl?: number
}) => string {
  const { view, params } = useRoute()
  return ({ abilities, insecure, ttl }) => {
    const next = new URLSearchParams(
      view === 'authorizations' ? [...params].filter(([name]) => !COMPOSER_PARAMS.has(name)) : [],
    )
    for (const ability of abilities) next.append('ability', ability)
    if (insecure) next.set('insecure', 'true')
    if (ttl !== undefined) next.set('ttl', String(ttl))
    return routeHref('authorizations', next)
  }
}
