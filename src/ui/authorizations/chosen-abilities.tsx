import { useState, type FormEvent } from 'react'
import { Field } from '../shared/field'
import { describeAbility } from '../shared/abilities'
import { Name, visibleText } from '../shared/quoted'

/** The abilities chosen so far, each removable, and a field to type any other name. */
export function ChosenAbilities({
  abilities,
  onAdd,
  onRemove,
}: {
  abilities: readonly string[]
  onAdd: (ability: string) => void
  onRemove: (ability: string) => void
}) {
  const [typed, setTyped] = useState('')

  function submit(event: FormEvent) {
    event.preventDefault()
    // Spaces are kept: a malformed name is shown and explained, never silently mended.
    if (typed === '') return
    onAdd(typed)
    setTyped('')
  }

  return (
    <div className="chosen">
      <h4 id="chosen-heading">Abilities to grant</h4>
      {abilities.length === 0 ? (
        <p className="empty">
          None yet: tick packages or endpoints in the catalogue, or type a name.
        </p>
      ) : (
        <ul className="chosen-list" aria-labelledby="chosen-heading">
          {abilities.map((raw) => {
            const readable = describeAbility(raw)
            return (
              <li key={raw}>
                <code>
                  <Name text={raw} />
                </code>
                {readable !== raw && (
                  <span className="muted">
                    <Name text={readable} edges={false} />
                  </span>
                )}
                <button
                  type="button"
                  className="link"
                  onClick={() => onRemove(raw)}
                  aria-label={`Remove ${visibleText(raw)}`}
                >
                  Remove
                </button>
              </li>
            )
          })}
        </ul>
      )}
      <form className="typed-ability" onSubmit={submit} aria-label="Type an ability">
        <Field label="Any other ability">
          {(id) => (
            <input
              id={id}
              value={typed}
              placeholder="lib.report or keyv.get?bucket=users"
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => setTyped(e.target.value)}
            />
          )}
        </Field>
        <button type="submit">Add</button>
      </form>
    </div>
  )
}
