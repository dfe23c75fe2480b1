/**
 * Long values on screen: a pasted megabyte is kept whole (sent, copied) but only a prefix of it
 * is drawn, so typing beside it stays quick. The page URL never holds more than `MAX_IN_URL`
 * characters of one value either.
 */

/** The most characters of one value drawn on screen. */
export const PREVIEW_CHARS = 4096

/** The most characters of one value kept in the page URL. */
export const MAX_IN_URL = 2000

/** Whether `text` is drawn only in part. */
export const isLong = (text: string, limit = PREVIEW_CHARS): boolean => text.length > limit

/** `text`, or its first `limit` characters when it is longer. */
export const prefixOf = (text: string, limit = PREVIEW_CHARS): string =>
  text.length > limit ? text.slice(0, limit) : text

/** What is not drawn of a long text: `… and 1,044,480 more characters (all are sent)`. */
export function moreOf(text: string, what = 'all are sent', limit = PREVIEW_CHARS): string {
  const more = text.length - limit
  return `… and ${more.toLocaleString('en-US')} more characters (${what})`
}

/** A `<pre>` of `text`, its first characters only when it is long, saying what it leaves out. */
export function Preview({
  text,
  what,
  testId,
  label,
}: {
  text: string
  /** What happens to the rest, in the note: `all are sent`. */
  what?: string
  testId?: string
  label?: string
}) {
  const long = isLong(text)
  return (
    <>
      <pre data-testid={testId} aria-label={label}>
        {prefixOf(text)}
      </pre>
      {long && (
        <p className="muted preview-more" data-testid="preview-more">
          {moreOf(text, what)}
        </p>
      )}
    </>
  )
}
