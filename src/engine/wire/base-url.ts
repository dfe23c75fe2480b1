/** A base URL as every reader keeps it: without the slashes that end it. */
export const trimBaseUrl = (url: string): string => url.replace(/\/+$/, '')

/**
 * The path of a base URL without the slashes that end it (`''` for the root), to which an
 * endpoint's path is added. Throws a `TypeError` when `url` is not an absolute URL.
 */
export const basePathOf = (url: string | URL): string =>
  trimBaseUrl((typeof url === 'string' ? new URL(url) : url).pathname)
