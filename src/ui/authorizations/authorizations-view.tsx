import './authorizations.css'
import { Composer } from './composer'
import { CreatedList } from './created-list'
import { TokenInspector } from './token-inspector'

/**
 * Authorizations: compose `auth.create` from the engine's catalogue and see the exact request,
 * follow every authorization made in this page as the virtual clock moves and secrets roll,
 * and inspect any token.
 */
export default function AuthorizationsView() {
  return (
    <div className="authorizations-view">
      <Composer />
      <CreatedList />
      <TokenInspector />
    </div>
  )
}
