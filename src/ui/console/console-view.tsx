/** The Console view. */
export default function ConsoleView() {
  return (
    <section aria-labelledby="view-heading" className="panel">
      <h2 id="view-heading">Console</h2>
    </section>
  )
}
