/** The Settings view. */
export default function SettingsView() {
  return (
    <section aria-labelledby="view-heading" className="panel">
      <h2 id="view-heading">Settings</h2>
    </section>
  )
}
