/**
 * The OpenAPI 3.1 description of the Catalog Service, derived from the
 * operation table ({@link Operations.all}) and the schemas of the contract.
 * Every schema in the document is the wire form (the encoded side): exact
 * integers and prices are strings with a pattern, dates are strings.
 *
 * @example
 * ```ts
 * import { OpenApi } from "effect-catalog"
 *
 * const document = OpenApi.make()
 * document.paths["/models/"]?.get.operationId // "models"
 * ```
 * @since 0.1.0
 */
import { JSONSchema, Option, Schema, SchemaAST as AST } from "effect"
import * as Operations from "./Operations.js"
import { pathParameters as pathParameterSchemas, SearchType, searchScope } from "./Parameters.js"
import { Problem } from "./Resources.js"

/**
 * A JSON Schema of the document (OpenAPI 3.1 uses JSON Schema 2020-12).
 *
 * @example
 * ```ts
 * import type { OpenApi } from "effect-catalog"
 *
 * const text: OpenApi.JsonSchema = { type: "string", maxLength: 160 }
 * ```
 * @category models
 * @since 0.1.0
 */
export type JsonSchema = JSONSchema.JsonSchema7

/**
 * A security requirement: the scheme name and the scopes it needs.
 *
 * @example
 * ```ts
 * import type { OpenApi } from "effect-catalog"
 *
 * const requirement: OpenApi.SecurityRequirement = { bearerAuth: ["models:read"] }
 * ```
 * @category models
 * @since 0.1.0
 */
export type SecurityRequirement = Readonly<Record<string, ReadonlyArray<string>>>

/**
 * A request parameter (path, query or header).
 *
 * @example
 * ```ts
 * import type { OpenApi } from "effect-catalog"
 *
 * const cursor: OpenApi.ParameterObject = {
 *   name: "cursor", in: "query", required: false, schema: { type: "string", maxLength: 1600 }
 * }
 * ```
 * @category models
 * @since 0.1.0
 */
export interface ParameterObject {
  readonly name: string
  readonly in: "path" | "query" | "header"
  readonly required: boolean
  readonly description?: string
  readonly schema: JsonSchema
}

/**
 * A response header.
 *
 * @example
 * ```ts
 * import type { OpenApi } from "effect-catalog"
 *
 * const etag: OpenApi.HeaderObject = { description: "Validator", schema: { type: "string" } }
 * ```
 * @category models
 * @since 0.1.0
 */
export interface HeaderObject {
  readonly description: string
  readonly schema: JsonSchema
}

/**
 * A response of an operation: its headers and, unless it has no body, its
 * content by media type.
 *
 * @example
 * ```ts
 * import type { OpenApi } from "effect-catalog"
 *
 * const notModified: OpenApi.ResponseObject = { description: "Not modified" }
 * ```
 * @category models
 * @since 0.1.0
 */
export interface ResponseObject {
  readonly description: string
  readonly headers?: Readonly<Record<string, HeaderObject>>
  readonly content?: Readonly<Record<string, { readonly schema: JsonSchema }>>
}

/**
 * One operation of the document. `x-units` is the unit cost of a successful
 * call; `x-scopes-by-type` (search only) maps each `type` to its scope.
 *
 * @example
 * ```ts
 * import { OpenApi } from "effect-catalog"
 *
 * const search = OpenApi.make().paths["/search/"]?.get
 * search?.["x-units"] // 5
 * ```
 * @category models
 * @since 0.1.0
 */
export interface OperationObject {
  readonly operationId: string
  readonly summary: string
  readonly description?: string
  readonly tags: ReadonlyArray<string>
  readonly parameters: ReadonlyArray<ParameterObject>
  readonly security: ReadonlyArray<SecurityRequirement>
  readonly responses: Readonly<Record<string, ResponseObject>>
  readonly "x-units": Operations.Units
  readonly "x-scopes-by-type"?: Readonly<Record<string, string>>
}

/**
 * The operations of one path; every operation of the contract is a GET.
 *
 * @example
 * ```ts
 * import { OpenApi } from "effect-catalog"
 *
 * const item: OpenApi.PathItem | undefined = OpenApi.make().paths["/stats/"]
 * item?.get.operationId // "stats"
 * ```
 * @category models
 * @since 0.1.0
 */
export interface PathItem {
  readonly get: OperationObject
}

/**
 * The OpenAPI 3.1 document of the service.
 *
 * @example
 * ```ts
 * import { OpenApi } from "effect-catalog"
 *
 * const document: OpenApi.Document = OpenApi.make()
 * document.info.version // "1.0.0"
 * ```
 * @category models
 * @since 0.1.0
 */
export interface Document {
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
  readonly paths: Readonly<Record<string, PathItem>>
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>
    readonly securitySchemes: {
      readonly bearerAuth: {
        readonly type: "http"
        readonly scheme: "bearer"
        readonly description: string
      }
    }
  }
}

/**
 * The server URL used when no base URL is given: the contract's `{base_url}`,
 * which already includes the version segment `/api/v1`.
 *
 * @example
 * ```ts
 * import { OpenApi } from "effect-catalog"
 *
 * OpenApi.defaultServerUrl // "https://catalog.example/api/v1"
 * ```
 * @category constants
 * @since 0.1.0
 */
export const defaultServerUrl = "https://catalog.example/api/v1"

const schemasPath = "#/components/schemas/"

const stringSchema: JsonSchema = { type: "string" }

const requestIdHeader: HeaderObject = {
  description: "Request identifier to quote in failure reports",
  schema: stringSchema
}

const etagHeader: HeaderObject = {
  description: "Validator for conditional requests (send it back in If-None-Match)",
  schema: stringSchema
}

const retryAfterHeader: HeaderObject = {
  description: "How long to wait before retrying",
  schema: stringSchema
}

const ifNoneMatch: ParameterObject = {
  name: "If-None-Match",
  in: "header",
  required: false,
  description: "The ETag of an earlier response from the same URL; a match answers 304 at no unit cost",
  schema: stringSchema
}

/** `Schema.optional` adds `undefined` to a field's type; a parameter is absent instead. */
const withoutUndefined = (ast: AST.AST): AST.AST =>
  AST.isUnion(ast) ? AST.Union.make(ast.types.filter((member) => !AST.isUndefinedKeyword(member)), ast.annotations) : ast

const inline = (ast: AST.AST): JsonSchema =>
  JSONSchema.fromAST(ast, { definitions: {}, target: "openApi3.1", topLevelReferenceStrategy: "skip" })

/**
 * The schema of a parameter: its encoded side with the rules that hold there
 * (lengths, patterns, literal lists). A decimal string that decodes to an
 * integer (such as `limit`) is described by its decoded side instead
 * (`integer` with `minimum`/`maximum` and its `default`): a query string
 * writes an integer as exactly those digits.
 */
const parameterSchema = (ast: AST.AST): JsonSchema => {
  const wire = inline(withoutUndefined(AST.encodedBoundAST(ast)))
  if (!("type" in wire) || wire.type !== "string") {
    return wire
  }
  const value = inline(withoutUndefined(AST.typeAST(ast)))
  return "type" in value && value.type === "integer" ? value : wire
}

/** A parameter from its field, described by the field's description annotation. */
const parameterOf = (field: AST.PropertySignature, location: "path" | "query"): ParameterObject => ({
  name: String(field.name),
  in: location,
  required: !field.isOptional,
  ...Option.match(AST.getDescriptionAnnotation(field), { onNone: () => ({}), onSome: (description) => ({ description }) }),
  schema: parameterSchema(field.type)
})

/** The fields of a struct's AST. */
const fieldsOf = (struct: AST.AST): ReadonlyArray<AST.PropertySignature> =>
  AST.isTypeLiteral(struct) ? struct.propertySignatures : []

const queryParameters = (query: AST.AST): ReadonlyArray<ParameterObject> =>
  fieldsOf(query).map((field) => parameterOf(field, "query"))

/** A name of a path parameter of the table. */
type PathParameterName = Operations.AnyOperation["pathParameters"][number]

/** Every path parameter of the table, described where `Parameters.pathParameters` says more than its name. */
const pathParameterFields = fieldsOf(Schema.Struct(
  pathParameterSchemas satisfies Readonly<Record<PathParameterName, Schema.PropertySignature.All>>
).ast)

const pathParameters = (names: ReadonlyArray<PathParameterName>): ReadonlyArray<ParameterObject> =>
  names.flatMap((name) => pathParameterFields.filter((field) => field.name === name).map((field) => parameterOf(field, "path")))

const searchTypes: ReadonlyArray<SearchType> = SearchType.literals

const security = (rule: Operations.ScopeRule): ReadonlyArray<SecurityRequirement> => {
  switch (rule._tag) {
    case "Scope":
      return [{ bearerAuth: [rule.scope] }]
    case "AnyKey":
      return [{ bearerAuth: [] }]
    case "SearchType":
      return searchTypes.map((type) => ({ bearerAuth: [searchScope[type]] }))
  }
}

const securityDescription = (rule: Operations.ScopeRule): string => {
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

const problemResponse = (description: string, headers: Readonly<Record<string, HeaderObject>>, problem: JsonSchema) =>
  ({
    description,
    headers: { ...headers, "X-Request-Id": requestIdHeader },
    content: { "application/problem+json": { schema: problem } }
  }) satisfies ResponseObject

const responses = (
  kind: "list" | "detail",
  body: JsonSchema,
  problem: JsonSchema
): Readonly<Record<string, ResponseObject>> => ({
  "200": {
    description: kind === "list" ? "A page of items" : "The resource",
    headers: { ETag: etagHeader, "X-Request-Id": requestIdHeader },
    content: { "application/json": { schema: body } }
  },
  "304": {
    description: "Not modified since the ETag given in If-None-Match; no body, costs zero units",
    headers: { ETag: etagHeader, "X-Request-Id": requestIdHeader }
  },
  "400": problemResponse("Invalid input: a bad, unknown or repeated parameter", {}, problem),
  "401": problemResponse("Missing or invalid API key", {}, problem),
  "403": problemResponse("The key lacks the scope or access", {}, problem),
  "404": problemResponse("Not found (an accepted 404 still consumes units)", {}, problem),
  ...(kind === "list"
    ? { "409": problemResponse("The cursor expired (`code` is `cursor_expired`); restart the listing", {}, problem) }
    : {}),
  "422": problemResponse("Response too large; request a smaller page", {}, problem),
  "429": problemResponse("A limit was reached; wait per Retry-After", { "Retry-After": retryAfterHeader }, problem),
  "503": problemResponse("Temporarily unavailable; wait per Retry-After", { "Retry-After": retryAfterHeader }, problem)
})

const tagOf = (path: string): string => path.split("/").find((segment) => segment.length > 0) ?? "catalog"

/** The AST of an operation's response envelope. */
const responseAst = (operation: Operations.AnyOperation) => {
  const item: Schema.Schema.AnyNoContext = operation.item
  return Operations.responseSchema({ kind: operation.kind, item }).ast
}

/**
 * Builds the OpenAPI 3.1 document of the service from the operation table:
 * one GET per operation with its parameters, scopes, unit cost (`x-units`),
 * the response envelope of its item and the problem+json error responses.
 * Shared schemas are in `components.schemas`; the document is plain JSON.
 *
 * @example
 * ```ts
 * import { OpenApi } from "effect-catalog"
 *
 * const document = OpenApi.make()
 * const json = JSON.stringify(document, null, 2)
 * document.paths["/search/"]?.get["x-units"] // 5
 * ```
 * @category constructors
 * @since 0.1.0
 */
export const make = (): Document => {
  const definitions: Record<string, JsonSchema> = {}
  const schemaOf = (ast: AST.AST): JsonSchema =>
    JSONSchema.fromAST(ast, {
      definitions,
      definitionPath: schemasPath,
      target: "openApi3.1",
      additionalPropertiesStrategy: "allow"
    })
  const problem = schemaOf(Problem.ast)

  const paths: Record<string, PathItem> = {}
  for (const operation of Operations.all) {
    const scopeRule = operation.scope
    paths[operation.path] = {
      get: {
        operationId: operation.id,
        summary: operation.summary,
        description: securityDescription(scopeRule),
        tags: [tagOf(operation.path)],
        parameters: [
          ...pathParameters(operation.pathParameters),
          ...queryParameters(operation.query.ast),
          ifNoneMatch
        ],
        security: security(scopeRule),
        responses: responses(operation.kind, schemaOf(responseAst(operation)), problem),
        "x-units": operation.units,
        ...(scopeRule._tag === "SearchType" ? { "x-scopes-by-type": { ...searchScope } } : {})
      }
    }
  }

  const tags = Array.from(new Set(Operations.all.map((operation) => tagOf(operation.path))), (name) => ({ name }))

  return {
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
    tags,
    paths,
    components: {
      schemas: definitions,
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "`Authorization: Bearer <API_KEY>`. Keys are scoped; never put a key in a query string."
        }
      }
    }
  }
}
