import { useEffect, useId, useState, type KeyboardEvent } from 'react'

/** One name the picker offers. */
export interface EndpointOption {
  name: string
  summary: string
}

/**
 * The options whose name or summary holds what was typed: the name typed exactly first, then
 * names that start with it, then names that hold it, then summaries.
 */
export function matching(options: readonly EndpointOption[], typed: string): EndpointOption[] {
  const query = typed.trim().toLowerCase()
  if (!query) return [...options]
  const rank = (option: EndpointOption) => {
    const name = option.name.toLowerCase()
    if (name === query) return 0
    if (name.startsWith(query)) return 1
    if (name.includes(query)) return 2
    return option.summary.toLowerCase().includes(query) ? 3 : 4
  }
  return options
    .map((option, index) => ({ option, index, rank: rank(option) }))
    .filter((item) => item.rank < 4)
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((item) => item.option)
}

/**
 * A combobox for the endpoint: any name may be typed; the list below narrows as one types, its
 * best match highlighted, and is walked with the arrow keys; Enter picks the highlighted name
 * and never sends (Ctrl+Enter sends), Escape closes.
 */
export function EndpointPicker({
  value,
  options,
  describedBy,
  onType,
  onPick,
}: {
  value: string
  options: readonly EndpointOption[]
  describedBy?: string
  onType: (name: string) => void
  onPick: (name: string) => void
}) {
  const id = useId()
  const listId = `${id}-list`
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const shown = matching(options, value)
  const expanded = open && shown.length > 0
  const activeOption = expanded ? shown[active] : undefined
  const activeId = activeOption ? `${id}-${active}` : undefined

  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' })
  }, [activeId])

  function pick(name: string) {
    onPick(name)
    setOpen(false)
    setActive(-1)
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.ctrlKey || event.metaKey || event.altKey) return
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (!expanded) {
        setOpen(true)
        setActive(event.key === 'ArrowDown' ? 0 : shown.length - 1)
        return
      }
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive((active + step + shown.length) % shown.length)
    } else if (event.key === 'Enter') {
      // Enter here picks; it never submits the form with a half-typed name.
      event.preventDefault()
      if (activeOption) pick(activeOption.name)
      else setOpen(false)
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault()
      setOpen(false)
    }
  }

  return (
    <div className="endpoint-picker">
      <label htmlFor={id}>Endpoint</label>
      <input
        id={id}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={activeId}
        aria-describedby={describedBy}
        autoComplete="off"
        spellCheck={false}
        placeholder="type.string.reverse"
        value={value}
        onChange={(event) => {
          onType(event.target.value)
          setOpen(true)
          // The best match is highlighted as one types: Enter takes it.
          setActive(event.target.value.trim() ? 0 : -1)
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onClick={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      <ul id={listId} role="listbox" aria-label="Endpoints" hidden={!expanded}>
        {expanded &&
          shown.map((option, index) => (
            <li
              key={option.name}
              id={`${id}-${index}`}
              role="option"
              aria-selected={index === active}
              // Keeps the focus in the input: the click picks.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(option.name)}
            >
              <code>{option.name}</code>
              <span className="muted">{option.summary}</span>
            </li>
          ))}
      </ul>
    </div>
  )
}
