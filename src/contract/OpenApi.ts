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
import * as Operations from "../../common/src/contract/Operations.js"
import * as OpenApiDocument from "../../rules/src/contract/OpenApiDocument.js"
import { pathParameters as pathParameterSchemas } from "../../common/src/contract/Parameters.js"
import { Problem } from "../../common/src/contract/Resources.js"

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
 * @since 0.1.0
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
 * @since 0.1.0
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
 * @since 0.1.0
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
 * @since 0.1.0
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
 * @since 0.1.0
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
 * @since 0.1.0
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
 * @since 0.1.0
 */
export const defaultServerUrl = OpenApiDocument.defaultServerUrl

const schemasPath = "#/components/schemas/"

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
  const operations = Operations.all.map((operation) => ({
    operation,
    parameters: [...pathParameters(operation.pathParameters), ...queryParameters(operation.query.ast)],
    body: schemaOf(responseAst(operation))
  }))
  return OpenApiDocument.make({ text: inline(Schema.String.ast), problem, components: definitions }, operations)
}
