/** Text from the engine or the form with `names' (or `names`) shown as code. */
export function Quoted({ text }: { text: string }) {
  const parts = text.split(/`([^`']*)['`]/)
  return (
    <>{parts.map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part))}</>
  )
}
