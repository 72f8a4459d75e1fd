/**
 * The OpenAPI 3.1 description of the Catalog Service, derived from the
 * operation table (`Operations.all`) and the schemas of the contract.
 * Every schema in the document is the wire form (the encoded side): exact
 * integers and prices are strings with a pattern, dates are strings. Each
 * edition makes the JSON Schemas with its own Effect
 * (`contract/internal/JsonSchemas.ts`); what the document says besides them
 * is stated once (rules/src/contract/OpenApiDocument.ts).
 *
 * @example
 * ```ts
 * import { OpenApi } from "effect-catalog"
 *
 * const document = OpenApi.make()
 * document.paths["/models/"]?.get.operationId // "models"
 * ```
 * @since 0.1.0 (1.x: 1.0.0)
 */
import * as JsonSchemas from "#edition/contract/internal/JsonSchemas.js"
import * as OpenApiDocument from "../../../rules/src/contract/OpenApiDocument.js"

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
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type JsonSchema = JsonSchemas.JsonSchema

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
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type SecurityRequirement = OpenApiDocument.SecurityRequirement

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
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type ParameterObject = OpenApiDocument.ParameterObject<JsonSchema>

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
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type HeaderObject = OpenApiDocument.HeaderObject<JsonSchema>

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
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type ResponseObject = OpenApiDocument.ResponseObject<JsonSchema>

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
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type OperationObject = OpenApiDocument.OperationObject<JsonSchema>

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
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type PathItem = OpenApiDocument.PathItem<JsonSchema>

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
 * @since 0.1.0 (1.x: 1.0.0)
 */
export type Document = OpenApiDocument.Document<JsonSchema>

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
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const defaultServerUrl = OpenApiDocument.defaultServerUrl

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
 * @since 0.1.0 (1.x: 1.0.0)
 */
export const make = (): Document => {
  const { schemas, operations } = JsonSchemas.generated()
  return OpenApiDocument.make(schemas, operations)
}
