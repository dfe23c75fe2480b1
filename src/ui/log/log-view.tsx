/** The Exchange log view. */
export default function LogView() {
  return (
    <section aria-labelledby="view-heading" className="panel">
      <h2 id="view-heading">Exchange log</h2>
    </section>
  )
}
