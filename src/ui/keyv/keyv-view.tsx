/** The Key-value view. */
export default function KeyvView() {
  return (
    <section aria-labelledby="view-heading" className="panel">
      <h2 id="view-heading">Key-value</h2>
    </section>
  )
}
