/**
 * The client's settings as plain data and checks: the variables a `Config`
 * reads them from, what each expects with an example, and the checks of a
 * base URL and an API key, with the words of their refusals.
 *
 * Imports nothing of Effect. `CatalogConfig`
 * (common/src/client/CatalogConfig.ts) gives `settings` and
 * `exampleBaseUrl` from here, and refuses with the edition's own
 * `ConfigError`.
 */
import { headerSafe, unencodable } from "./TransportRules.js"

/** What a base URL looks like, for the messages that refuse one. */
export const exampleBaseUrl = "https://catalog.example/api/v1"

/** A setting: the variable of the environment it is read from, what it expects and an example value. */
export interface Setting {
  readonly variable: string
  readonly expected: string
  readonly example: string
}

/** The settings a `Config` can give, and the only place their variables are named. */
export const settings = {
  apiKey: { variable: "CATALOG_API_KEY", expected: "the account's API key", example: "cat_live_…" },
  baseUrl: { variable: "CATALOG_BASE_URL", expected: "the service's base URL", example: exampleBaseUrl },
  timeout: { variable: "CATALOG_TIMEOUT", expected: "a duration", example: "\"10 seconds\"" },
  timeScale: { variable: "CATALOG_TIME_SCALE", expected: "a number more than 0", example: "0.1" },
  dailyBudget: { variable: "CATALOG_DAILY_BUDGET", expected: "a whole number of units, 0 or more", example: "500" }
} as const satisfies Record<string, Setting>

/**
 * A base URL checked: absolute `http(s)`, no credentials, no query or
 * fragment, and written as it will be sent (no lone surrogate, which `URL`
 * would silently replace), without its trailing slashes; or why not, in
 * words that follow `source` (where the value came from), with an example,
 * showing the value only where it cannot hold a password.
 */
export const checkBaseUrl = (input: string | URL): { readonly url: URL } | { readonly why: string } => {
  const expected = `expected e.g. ${exampleBaseUrl}`
  const unsendable = typeof input === "string" ? unencodable(input) : undefined
  if (unsendable !== undefined) return { why: unsendable }
  let url: URL
  try {
    url = new URL(input)
  } catch {
    // Text that is not a URL is shown, unless it could hold credentials (user:password@host).
    const shown = typeof input === "string" && !input.includes("@") ? `${JSON.stringify(input)} ` : ""
    return { why: `${shown}is not a URL; ${expected}` }
  }
  if (url.username !== "" || url.password !== "") return { why: `must not carry credentials (the key goes in CATALOG_API_KEY); ${expected}` }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    // Another scheme may hold credentials where `URL` does not see them (`user:password@host` is a path of the scheme `user:`).
    const shown = url.href.includes("@") ? "" : `${JSON.stringify(url.href)} `
    return { why: `${shown}is not an http or https URL; ${expected}` }
  }
  if (url.search !== "" || url.hash !== "") return { why: `${JSON.stringify(url.origin + url.pathname)}… must not have a query or a fragment; ${expected}` }
  url.pathname = url.pathname.replace(/\/+$/, "")
  return { url }
}

/** Why an API key cannot be sent in a header, or undefined when it can. */
export const apiKeyProblem = (key: string): string | undefined =>
  key === ""
    ? "The API key is empty; expected the account's API key, e.g. cat_live_…"
    : headerSafe.test(key)
    ? undefined
    : "The API key must be printable ASCII without spaces, as cat_live_… is"
