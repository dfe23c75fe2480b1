/** The Authorizations view. */
export default function AuthorizationsView() {
  return (
    <section aria-labelledby="view-heading" className="panel">
      <h2 id="view-heading">Authorizations</h2>
    </section>
  )
}
