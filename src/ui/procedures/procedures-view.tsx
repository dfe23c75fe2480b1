/** The Procedures view. */
export default function ProceduresView() {
  return (
    <section aria-labelledby="view-heading" className="panel">
      <h2 id="view-heading">Procedures</h2>
    </section>
  )
}
