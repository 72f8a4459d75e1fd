/**
 * The plain loop the client is compared with: `fetch`, `JSON.parse`, and just
 * enough checking to follow `links.next`. It imports nothing else, so that
 * its process measures the loop alone.
 */
const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === "object" && value !== null

/** What a plain loop reads of a list page: its items and the link to the next page. */
export interface PlainPage {
  readonly data: ReadonlyArray<unknown>
  readonly next: string | null
}

/** The envelope of a list page, checked just enough to follow it. */
export const plainPage = (body: unknown): PlainPage => {
  const data = isRecord(body) ? body["data"] : undefined
  const links = isRecord(body) ? body["links"] : undefined
  const next = isRecord(links) ? links["next"] : undefined
  if (!Array.isArray(data) || (typeof next !== "string" && next !== null)) throw new Error("not a list page")
  return { data, next }
}

/** The `id` of an item, as a plain loop reads it. */
export const idOf = (item: unknown): string => {
  const id = isRecord(item) ? item["id"] : undefined
  if (typeof id !== "string") throw new Error("an item without an id")
  return id
}

/** A GET with the key, as a plain loop sends it. */
export const get = async (url: string, key: string): Promise<Response> => {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}`, accept: "application/json" } })
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`)
  return response
}

/**
 * The pages of a list from its first URL, following `links.next` to the last;
 * `parse` reads the text of each (`JSON.parse`, or a validating parser).
 */
export async function* plainPages(first: string, key: string, parse: (text: string) => unknown = JSON.parse): AsyncGenerator<PlainPage> {
  let next: string | null = first
  while (next !== null) {
    const page = plainPage(parse(await (await get(next, key)).text()))
    yield page
    next = page.next
  }
}

/** `daily_units` of `/usage/`, read without being charged. */
export const dailyUnits = async (baseUrl: string, key: string): Promise<number> => {
  const body: unknown = await (await get(`${baseUrl}/usage/`, key)).json()
  const data = isRecord(body) ? body["data"] : undefined
  const units = isRecord(data) ? data["daily_units"] : undefined
  if (typeof units !== "number") throw new Error("no daily_units in /usage/")
  return units
}

