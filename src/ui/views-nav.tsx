import { useId, useState } from 'react'
import { navHref } from './shared/router'
import { VIEW_LIST, viewLabel, type ViewId } from './shared/view-ids'
import { prefetchView } from './views'

/**
 * The views, as tabs along the page; below 480 px they fold under one button that names the
 * view shown (app.css), so a narrow window keeps its height for the view. A link pointed at or
 * focused starts loading its view's code.
 */
export function ViewsNav({ view }: { view: ViewId }) {
  const [open, setOpen] = useState(false)
  const listId = useId()
  return (
    <nav aria-label="Views" className="views-nav">
      <button
        type="button"
        className="views-fold"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
      >
        {viewLabel(view)} <span aria-hidden="true">{open ? '▴' : '▾'}</span>
        <span className="visually-hidden"> (other views)</span>
      </button>
      <ul id={listId} data-open={open ? 'true' : undefined}>
        {VIEW_LIST.map((info) => (
          <li key={info.id}>
            <a
              href={navHref(info.id)}
              aria-current={info.id === view ? 'page' : undefined}
              onClick={() => setOpen(false)}
              onPointerEnter={() => prefetchView(info.id)}
              onFocus={() => prefetchView(info.id)}
            >
              {info.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}
