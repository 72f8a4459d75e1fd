/**
 * Wire-form records and URL helpers shared by the client's tests.
 */

/** A model in wire form, below `baseUrl`. */
export const wireModel = (baseUrl: string, organization = "o0000-falcon", model = "m0000000-kestrel-8b") => ({
  id: `${organization}/${model}`,
  name: "Kestrel 8B",
  family_id: null,
  organization_catalog_id: organization,
  organization_slug: null,
  released_on: "2026-01-02",
  context_tokens: "1048576",
  open_weights: null,
  reasoning: true,
  offer_count: 1,
  provider_count: 1,
  updated_at: null,
  url: `https://catalog.example/models/${organization}/${model}`,
  api_url: `${baseUrl}/models/${organization}/${model}/`,
  specifications: {}
})

/** The decoded path segments of a URL below the base URL. */
export const segmentsOf = (baseUrl: string, url: string): ReadonlyArray<string> =>
  new URL(url).pathname
    .slice(new URL(baseUrl).pathname.length)
    .split("/")
    .filter((segment) => segment !== "")
    .map(decodeURIComponent)
