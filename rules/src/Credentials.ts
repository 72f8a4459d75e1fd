/**
 * Addresses as messages and the process list show them: a database or
 * Redis URL without the secrets it may carry. The drivers read a password
 * from the URL's userinfo and from its query (node-postgres and ioredis
 * turn every query parameter into a connection option: `?password=…`,
 * libpq's `sslpassword`, ioredis's `sentinelPassword`), so both are hidden;
 * the fragment, which no driver reads, is dropped:
 * `postgres://mirror:S3CRET@db/catalog?sslmode=require&PassWord=S3CRET`
 * is shown as `postgres://mirror:***@db/catalog?sslmode=require&PassWord=***`.
 */
/** What stands in for a secret. */
export const hidden = "***"

/**
 * Whether a query parameter holds a secret, by its name in any case: every
 * password (`password`, `sslpassword`, `sentinelPassword`, `passwd`), a
 * passphrase, a secret or a token. The paths of files that hold secrets
 * (`passfile`, `sslkey`, `sslcert`) are not secrets and stay, as they say
 * where to look when a connection fails.
 */
const holdsSecret = (name: string): boolean => /pass(word|wd|phrase)|secret|token/i.test(name)

/**
 * An address (`postgres://…`, `redis://…`, any URL) with its userinfo
 * password and every query parameter that holds a secret replaced by
 * `***`, and without its fragment; `undefined` when it cannot be read as a
 * URL, so that nothing of it is shown (`postgres://u:pa#ss@host/db`, which
 * the drivers cannot read either). It loads nothing: the command calls it
 * before anything else loads (`ProcessTitle`).
 */
export const withoutCredentials = (address: string): string | undefined => {
  if (!URL.canParse(address)) return undefined
  const url = new URL(address)
  if (url.password !== "") url.password = hidden
  url.hash = ""
  const parameters = [...url.searchParams]
  if (parameters.some(([name]) => holdsSecret(name))) {
    url.search = new URLSearchParams(parameters.map(([name, value]): [string, string] => [name, holdsSecret(name) ? hidden : value])).toString()
  }
  return url.href
}
