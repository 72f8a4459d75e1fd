/**
 * The plain parts of the service's URLs: the base URL's path, a URL below
 * it, why a string cannot be sent or a segment is not a resource name, the
 * check that a returned link stays below the base URL (and what of it may
 * be shown when it does not), the operation whose path template a link's
 * path matches with its path parameters decoded, and what a link that
 * names nothing of the contract is told.
 *
 * Imports nothing of Effect. `Links` (common/src/client/internal/Links.ts,
 * compiled against either Effect) gives these answers as a `Result` of the
 * client's errors, and decodes parameters and queries with the edition's
 * schemas.
 */
import * as TransportRules from "./TransportRules.js"

/** The base URL's path without a trailing slash (`""` for a root). */
const basePath = (baseUrl: URL) => baseUrl.pathname.replace(/\/+$/, "")

/** The URL of `path` (a path of the contract) below the base URL. */
export const below = (baseUrl: URL, path: string): URL => new URL(`${baseUrl.origin}${basePath(baseUrl)}${path}`)

/** The path of a URL below the base URL, from the contract's root. */
export const pathBelow = (baseUrl: URL, url: URL): string => url.pathname.slice(basePath(baseUrl).length)

/** Why the parameter `name`'s string cannot go into a URL as it is (the value itself is not shown), or `undefined` when it can. */
export const unsendable = (name: string, text: string): string | undefined => {
  const why = TransportRules.unencodable(text)
  return why === undefined ? undefined : `${name}: ${why}`
}

/** Why a path segment is not a resource name (`.` and `..` would change the path), or `undefined` when it can be one. */
export const notResourceName = (name: string, segment: string): string | undefined =>
  segment === "." || segment === ".." ? `${name}: "${segment}" is not a resource name` : undefined

/** A link as a URL, or `undefined` when it is not one. */
const parseLink = (link: string): URL | undefined => {
  try {
    return new URL(link)
  } catch {
    return undefined
  }
}

/** A returned link: a URL below the base URL without its fragment, or what may be shown of one that is not. */
export type CheckedLink =
  | { readonly _tag: "Below"; readonly url: URL }
  | { readonly _tag: "Outside"; readonly shown: string }

/**
 * A link returned by the service, if it stays on the base URL's origin and
 * below its path, without its fragment (a fragment is never sent, so two
 * links that differ only in it lead to the same page); otherwise what may
 * be shown of it. A link that cannot be sent as it is written (a lone
 * surrogate) does not stay below.
 */
export const checkLink = (baseUrl: URL, link: string): CheckedLink => {
  const wellFormed = TransportRules.unencodable(link) === undefined
  const url = wellFormed ? parseLink(link) : undefined
  const isBelow = url !== undefined && url.origin === baseUrl.origin && url.username === "" && url.password === "" &&
    url.pathname.startsWith(`${basePath(baseUrl)}/`)
  if (url !== undefined && isBelow) {
    url.hash = ""
    return { _tag: "Below", url }
  }
  // Only the origin is kept: a hostile link's path or query could carry anything.
  const shown = url === undefined ? (wellFormed ? "(not a URL)" : "(not a well-formed URL)") : url.origin === "null" ? `${url.protocol} URL` : url.origin
  return { _tag: "Outside", shown }
}

/** What a path template is matched by: the operation, and a pattern with a group for each path parameter. */
export interface Template<O> {
  readonly operation: O
  readonly pattern: RegExp
}

/** The templates of the operations' paths, in their order. */
export const templates = <O extends { readonly path: string }>(operations: ReadonlyArray<O>): ReadonlyArray<Template<O>> =>
  operations.map((operation) => ({ operation, pattern: new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, "([^/]+)")}$`) }))

/** The path parameters of a path that a pattern matched, decoded; `undefined` when one is not valid percent-encoding. */
const pathParametersOf = (names: ReadonlyArray<string>, match: RegExpExecArray): Record<string, string> | undefined => {
  const parameters: Record<string, string> = {}
  try {
    names.forEach((name, index) => (parameters[name] = decodeURIComponent(match[index + 1] ?? "")))
  } catch {
    return undefined
  }
  return parameters
}

/** What a path names: the first operation whose template it matches with its path parameters, or why it names none. */
export type Matched<O> =
  | { readonly _tag: "Matched"; readonly operation: O; readonly parameters: Readonly<Record<string, string>> }
  | { readonly _tag: "Refused"; readonly message: string }

/** The first operation whose template `path` matches, with its path parameters decoded; a path none matches, or whose parameters are not valid percent-encoding, is refused. */
export const match = <O extends { readonly pathParameters: ReadonlyArray<string> }>(
  templates: ReadonlyArray<Template<O>>,
  path: string
): Matched<O> => {
  for (const { operation, pattern } of templates) {
    const found = pattern.exec(path)
    if (found === null) continue
    const parameters = pathParametersOf(operation.pathParameters, found)
    return parameters === undefined
      ? { _tag: "Refused", message: `The link's path is not valid percent-encoding: ${path}` }
      : { _tag: "Matched", operation, parameters }
  }
  return { _tag: "Refused", message: `The link names no resource or list of the contract: ${path}` }
}

/** What a list link's query that breaks the list's rules is told. */
export const queryMessage = (detail: string): string => `The link's query: ${detail}`

