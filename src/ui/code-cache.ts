/** How long the hidden frame may take before it is taken away, done or not. */
const FRAME_MS = 30_000

/**
 * Chromium keeps a module script's compiled code beside the copy the service worker cached, but
 * only once the module has run from that copy. A first visit runs its scripts from the network
 * (no worker controls it yet), so the second visit paid, before its first screen, for compiling
 * them and writing that code cache: the largest part of its main thread's time (decision 100).
 * So once a first visit's shell is cached, when the page is idle, its first screen's scripts
 * (the page's own and those it preloads) run again from the worker's cache in a hidden frame of
 * the same origin (`public/code-cache.html`), where they start nothing; the next visit starts
 * from their code cache. `data-code-cache="ready"` on the root element says it is done.
 */
export function warmCodeCache(): void {
  const scripts = [
    ...document.querySelectorAll<HTMLScriptElement>('script[type="module"][src]'),
    ...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]'),
  ].map((element) => ('src' in element ? element.src : element.href))
  if (scripts.length === 0) return
  const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1))
  idle(() => {
    const frame = document.createElement('iframe')
    frame.hidden = true
    frame.setAttribute('aria-hidden', 'true')
    frame.tabIndex = -1
    frame.src = `/code-cache.html#${encodeURIComponent(JSON.stringify(scripts))}`
    const done = () => {
      clearTimeout(timer)
      window.removeEventListener('message', heard)
      frame.remove()
    }
    const heard = (event: MessageEvent<unknown>) => {
      if (event.source !== frame.contentWindow) return
      if ((event.data as { type?: unknown } | null)?.type !== 'CODE_CACHED') return
      document.documentElement.dataset.codeCache = 'ready'
      done()
    }
    const timer = setTimeout(done, FRAME_MS)
    window.addEventListener('message', heard)
    document.body.append(frame)
  })
}
