// A notes app. Its backend holds the service's secret and hands the page a session at
// POST /session: the service's base URL, the user's bucket and an authorization limited to
// that bucket, with a time to live. The page calls the service with fetch and nothing else.

const MEDIA = 'application/vnd.service+json'
/** Notes per keyv.scan page: small, so that a short list already comes in pages. */
const PAGE = 2

/** The service refused a call: its status and its message. */
export class ServiceError extends Error {
  constructor(status, message) {
    super(message)
    this.status = status
  }
}

/** The notes of one bucket, through the service at `baseUrl` with `token`. */
export function connect({ baseUrl, token, bucket }) {
  async function call(endpoint, args) {
    const response = await fetch(`${baseUrl}/${endpoint.split('.').join('/')}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': MEDIA, accept: MEDIA },
      body: JSON.stringify(Object.entries(args).map(([name, value]) => ['$$', name, value])),
    })
    const [[marker, value]] = await response.json()
    if (marker === '!!') throw new ServiceError(response.status, value.message)
    return { value, cursor: response.headers.get('x-cursor') ?? '' }
  }

  return {
    /** Every note, oldest key first: the keys a page at a time, then each note. */
    async list() {
      const keys = []
      let cursor = ''
      do {
        const page = await call('keyv.scan', { bucket, count: PAGE, ...(cursor ? { cursor } : {}) })
        keys.push(...page.value)
        cursor = page.cursor
      } while (cursor)
      const notes = []
      for (const key of keys)
        notes.push({ key, ...(await call('keyv.get', { bucket, key })).value })
      return notes
    },
    /** Keeps a note under a key made from its title. */
    async add({ title, text }) {
      const key = title.toLowerCase().replace(/[^a-z0-9]+/g, '-')
      await call('keyv.set', { bucket, key, value: { title, text } })
      return key
    },
    async remove(key) {
      await call('keyv.delete', { bucket, key })
    },
  }
}

async function start() {
  const session = await (await fetch('/session', { method: 'POST' })).json()
  const notes = connect(session)
  const status = document.querySelector('[role=status]')
  const list = document.querySelector('ul')
  const form = document.querySelector('form')

  async function show(work) {
    try {
      await work?.()
      list.replaceChildren(
        ...(await notes.list()).map((note) => {
          const item = document.createElement('li')
          const remove = document.createElement('button')
          remove.textContent = `Delete ${note.title}`
          remove.addEventListener('click', () => show(() => notes.remove(note.key)))
          item.append(`${note.title}: ${note.text}`, ' ', remove)
          return item
        }),
      )
      const count = list.children.length
      status.textContent = `${count} note${count === 1 ? '' : 's'}`
    } catch (error) {
      status.textContent =
        error instanceof ServiceError && error.message === 'authorization is expired'
          ? 'Your session has expired: sign in again.'
          : `The notes could not be loaded: ${error.message}`
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const { title, text } = Object.fromEntries(new FormData(form))
    form.reset()
    show(() => notes.add({ title, text }))
  })
  document.querySelector('[data-action=refresh]').addEventListener('click', () => show())
  window.notesApp = { connect, session }
  await show()
}

start()
