/**
 * The OpenAPI 3.1 document of the service apart from its JSON Schemas: the
 * document's info, servers and security scheme, each operation's path, id,
 * summary, tag, security and unit cost, its If-None-Match header, its
 * responses with their codes, descriptions and headers, and how the document
 * is assembled. Stated once here for both editions: each edition's
 * `contract/internal/JsonSchemas.ts` generates the JSON Schemas (every
 * parameter's, every response envelope's, the problem's and the shared
 * components) with its own Schema, and `OpenApi`
 * (common/src/contract/OpenApi.ts) hands them to {@link make}.
 * Imports nothing of Effect; `S` is an edition's type of a JSON Schema.
 */
import type { ScopeRule, Units } from "./OperationTable.js"
import { searchScope, searchTypes } from "./Scopes.js"

/** A security requirement: the scheme name and the scopes it needs. */
export type SecurityRequirement = Readonly<Record<string, ReadonlyArray<string>>>

/** A request parameter (path, query or header). */
export interface ParameterObject<S> {
  readonly name: string
  readonly in: "path" | "query" | "header"
  readonly required: boolean
  readonly description?: string
  readonly schema: S
}

/** A response header. */
export interface HeaderObject<S> {
  readonly description: string
  readonly schema: S
}

/** A response of an operation: its headers and, unless it has no body, its content by media type. */
export interface ResponseObject<S> {
  readonly description: string
  readonly headers?: Readonly<Record<string, HeaderObject<S>>>
  readonly content?: Readonly<Record<string, { readonly schema: S }>>
}

/** One operation of the document, with its unit cost (`x-units`) and, for search, the scope of each `type`. */
export interface OperationObject<S> {
  readonly operationId: string
  readonly summary: string
  readonly description?: string
  readonly tags: ReadonlyArray<string>
  readonly parameters: ReadonlyArray<ParameterObject<S>>
  readonly security: ReadonlyArray<SecurityRequirement>
  readonly responses: Readonly<Record<string, ResponseObject<S>>>
  readonly "x-units": Units
  readonly "x-scopes-by-type"?: Readonly<Record<string, string>>
}

/** The operations of one path; every operation of the contract is a GET. */
export interface PathItem<S> {
  readonly get: OperationObject<S>
}

/** The OpenAPI 3.1 document of the service. */
export interface Document<S> {
  readonly openapi: "3.1.0"
  readonly info: {
    readonly title: string
    readonly version: string
    readonly summary: string
    readonly description: string
  }
  readonly servers: ReadonlyArray<{
    readonly url: string
    readonly description: string
    readonly variables: Readonly<Record<string, { readonly default: string; readonly description: string }>>
  }>
  readonly tags: ReadonlyArray<{ readonly name: string }>
  readonly paths: Readonly<Record<string, PathItem<S>>>
  readonly components: {
    readonly schemas: Readonly<Record<string, S>>
    readonly securitySchemes: {
      readonly bearerAuth: {
        readonly type: "http"
        readonly scheme: "bearer"
        readonly description: string
      }
    }
  }
}

/** The server URL used when no base URL is given: the contract's `{base_url}`, with the version segment `/api/v1`. */
export const defaultServerUrl = "https://catalog.example/api/v1"

/** What the document takes from a row of the operations table. */
export interface Operation {
  readonly id: string
  readonly path: string
  readonly kind: "list" | "detail"
  readonly scope: ScopeRule
  readonly units: Units
  readonly summary: string
}

/** An operation with the JSON Schemas an edition generated for it. */
export interface Described<S> {
  readonly operation: Operation
  /** Its path parameters, then its query parameters, each with the JSON Schema of its rules. */
  readonly parameters: ReadonlyArray<ParameterObject<S>>
  /** The JSON Schema of its response envelope (`200`). */
  readonly body: S
}

/** The JSON Schemas an edition generated for the whole document. */
export interface Schemas<S> {
  /** The JSON Schema of any string, for the headers. */
  readonly text: S
  /** The JSON Schema of the problem+json body (a `$ref` to its component). */
  readonly problem: S
  /** The shared schemas, by their names in `$ref`s (`#/components/schemas/<name>`). */
  readonly components: Readonly<Record<string, S>>
}

const headers = <S>(text: S) => ({
  requestId: { description: "Request identifier to quote in failure reports", schema: text },
  etag: { description: "Validator for conditional requests (send it back in If-None-Match)", schema: text },
  retryAfter: { description: "How long to wait before retrying", schema: text }
}) satisfies Readonly<Record<string, HeaderObject<S>>>

const ifNoneMatch = <S>(text: S): ParameterObject<S> => ({
  name: "If-None-Match",
  in: "header",
  required: false,
  description: "The ETag of an earlier response from the same URL; a match answers 304 at no unit cost",
  schema: text
})

const security = (rule: ScopeRule): ReadonlyArray<SecurityRequirement> => {
  switch (rule._tag) {
    case "Scope":
      return [{ bearerAuth: [rule.scope] }]
    case "AnyKey":
      return [{ bearerAuth: [] }]
    case "SearchType":
      return searchTypes.map((type) => ({ bearerAuth: [searchScope[type]] }))
  }
}

const securityDescription = (rule: ScopeRule): string => {
  switch (rule._tag) {
    case "Scope":
      return `Requires a key with the scope \`${rule.scope}\`.`
    case "AnyKey":
      return "Accepts any valid catalog key."
    case "SearchType":
      return "The required scope depends on `type`: the read scope of the selected catalog (" +
        searchTypes.map((type) => `\`${type}\` needs \`${searchScope[type]}\``).join(", ") + ")."
  }
}

/** The responses of an operation: its body, 304, and the problem+json failures (409 on lists only). */
const responses = <S>(
  kind: "list" | "detail",
  body: S,
  { problem, text }: Pick<Schemas<S>, "problem" | "text">
): Readonly<Record<string, ResponseObject<S>>> => {
  const { etag, requestId, retryAfter } = headers(text)
  const failure = (description: string, extra: Readonly<Record<string, HeaderObject<S>>> = {}): ResponseObject<S> => ({
    description,
    headers: { ...extra, "X-Request-Id": requestId },
    content: { "application/problem+json": { schema: problem } }
  })
  return {
    "200": {
      description: kind === "list" ? "A page of items" : "The resource",
      headers: { ETag: etag, "X-Request-Id": requestId },
      content: { "application/json": { schema: body } }
    },
    "304": {
      description: "Not modified since the ETag given in If-None-Match; no body, costs zero units",
      headers: { ETag: etag, "X-Request-Id": requestId }
    },
    "400": failure("Invalid input: a bad, unknown or repeated parameter"),
    "401": failure("Missing or invalid API key"),
    "403": failure("The key lacks the scope or access"),
    "404": failure("Not found (an accepted 404 still consumes units)"),
    ...(kind === "list" ? { "409": failure("The cursor expired (`code` is `cursor_expired`); restart the listing") } : {}),
    "422": failure("Response too large; request a smaller page"),
    "429": failure("A limit was reached; wait per Retry-After", { "Retry-After": retryAfter }),
    "503": failure("Temporarily unavailable; wait per Retry-After", { "Retry-After": retryAfter })
  }
}

const tagOf = (path: string): string => path.split("/").find((segment) => segment.length > 0) ?? "catalog"

const operationObject = <S>({ body, operation, parameters }: Described<S>, schemas: Schemas<S>): OperationObject<S> => ({
  operationId: operation.id,
  summary: operation.summary,
  description: securityDescription(operation.scope),
  tags: [tagOf(operation.path)],
  parameters: [...parameters, ifNoneMatch(schemas.text)],
  security: security(operation.scope),
  responses: responses(operation.kind, body, schemas),
  "x-units": operation.units,
  ...(operation.scope._tag === "SearchType" ? { "x-scopes-by-type": { ...searchScope } } : {})
})

/**
 * The document: one GET per operation, in the order given, with its
 * parameters and the If-None-Match header, its scopes, its unit cost and its
 * responses; the shared schemas in `components.schemas`.
 */
export const make = <S>(schemas: Schemas<S>, operations: ReadonlyArray<Described<S>>): Document<S> => ({
  openapi: "3.1.0",
  info: {
    title: "Catalog Service",
    version: "1.0.0",
    summary: "Read-only discovery API for public AI catalogs",
    description: "Free, authenticated, read-only discovery of public AI catalogs: models, families, " +
      "providers, offers, organizations, Skills, publishers, MCP servers, topics and articles. " +
      "Skill documents and MCP connection data are untrusted, inert content."
  },
  servers: [{
    url: "{base_url}",
    description: "The service base URL, including the version segment /api/v1",
    variables: { base_url: { default: defaultServerUrl, description: "Base URL of the service" } }
  }],
  tags: Array.from(new Set(operations.map(({ operation }) => tagOf(operation.path))), (name) => ({ name })),
  paths: Object.fromEntries(operations.map((described) => [described.operation.path, { get: operationObject(described, schemas) }])),
  components: {
    schemas: schemas.components,
    securitySchemes: {
      bearerAuth: {
        type: "http",
        scheme: "bearer",
        description: "`Authorization: Bearer <API_KEY>`. Keys are scoped; never put a key in a query string."
      }
    }
  }
})
