/**
 * The service's own name in case and contract files. It appears on the wire in three places:
 * the tuple content types (`application/vnd.<name>+json`), the stored-procedure package
 * (`<name>.create`), and some error messages (``undefined <name> `a.b'``). Files write it as
 * `{service}`; the runner puts the target's name in its place before it sends or compares
 * anything, so one file holds for a service of any name.
 */
export const SERVICE = '{service}'

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** `{service}` replaced by `name` in every string of `value`, keys included. */
export function withServiceName<T>(value: T, name: string): T {
  return replaceStrings(value, (text) => text.replaceAll(SERVICE, name)) as T
}

/** `{service}` replaced in a regular expression's source: the name matches only itself. */
export function patternWithServiceName(pattern: string, name: string): string {
  return pattern.replaceAll(SERVICE, escapeRegExp(name))
}

function replaceStrings(value: unknown, replace: (text: string) => string): unknown {
  if (typeof value === 'string') return replace(value)
  if (Array.isArray(value)) return value.map((item) => replaceStrings(item, replace))
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [replace(k), replaceStrings(v, replace)]),
    )
  }
  return value
}

/**
 * An endpoint or ability name with the service's package written as `{service}`:
 * `acme.create` → `{service}.create`, `acme` → `{service}`; any other name as it is.
 */
export function markEndpoint(name: string, serviceName: string): string {
  if (name === serviceName) return SERVICE
  if (name.startsWith(`${serviceName}.`)) return SERVICE + name.slice(serviceName.length)
  if (name.startsWith(`${serviceName}?`)) return SERVICE + name.slice(serviceName.length)
  return name
}

/**
 * A message the service answered, with its name written as `{service}` where the message's
 * grammar puts it: before a quoted endpoint (``<name> `a.b'``, ``undefined <name> `a.b'``,
 * ``access <name> `a.b'``), in a quoted endpoint or ability of its package (`` `<name>.create' ``),
 * in the list of insecure abilities (`` `<name>' ``), after `use ` (`use <name>.update`) and in
 * its media types (`application/vnd.<name>+json`). A quoted argument that happens to share the
 * name (``invalid argument `proc' for `enum.map'``) is left alone.
 */
export function markServiceName(message: string, serviceName: string): string {
  const name = escapeRegExp(serviceName)
  let marked = message
    .replace(new RegExp(`(^|[\\s(])${name} \``, 'g'), `$1${SERVICE} \``)
    .replace(new RegExp(`\`${name}\\.`, 'g'), `\`${SERVICE}.`)
    .replace(new RegExp(`(^|\\s)use ${name}\\.`, 'g'), `$1use ${SERVICE}.`)
    .replace(new RegExp(`vnd\\.${name}\\+`, 'g'), `vnd.${SERVICE}+`)
  if (/^insecure abilities /.test(marked)) {
    marked = marked.replace(new RegExp(`\`${name}'`, 'g'), `\`${SERVICE}'`)
  }
  return marked
}
