/**
 * The OpenAPI 3.1 description of the Catalog Service, derived from the
 * operation table ({@link Operations.all}) and the schemas of the contract.
 * Every schema in the document is the wire form: Schema 4's JSON Schema of
 * the schema's JSON codec (`Schema.toCodecJson`), so exact integers and
 * prices are strings with a pattern, dates are strings with a pattern, and
 * an optional member (`Schema.optional`) may also be `null`, as the JSON
 * codec reads it. What the document says besides its schemas is the Effect 3
 * edition's, stated once for both.
 *
 * @example
 * ```ts
 * import { OpenApi } from "effect-catalog"
 *
 * const document = OpenApi.make()
 * document.paths["/models/"]?.get.operationId // "models"
 * ```
 * @since 1.0.0
 */
import { Array as Arr, JsonSchema as Json, Schema, SchemaAST, SchemaRepresentation } from "effect"
import * as OpenApiDocument from "../../../rules/src/contract/OpenApiDocument.js"
import * as Operations from "../../../common/src/contract/Operations.js"
import { pathParameters as pathParameterSchemas } from "../../../common/src/contract/Parameters.js"
import * as Primitives from "./Primitives.js"
import { Problem } from "../../../common/src/contract/Resources.js"

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
 * @since 1.0.0
 */
export type JsonSchema = Json.JsonSchema

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
 * @since 1.0.0
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
 * @since 1.0.0
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
 * @since 1.0.0
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
 * @since 1.0.0
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
 * @since 1.0.0
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
 * @since 1.0.0
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
 * @since 1.0.0
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
 * @since 1.0.0
 */
export const defaultServerUrl = OpenApiDocument.defaultServerUrl

/** The JSON Schema of one schema's wire form, every part of it inline (with no `$ref`, draft 2020-12 is OpenAPI 3.1's form). */
const inline = (ast: SchemaAST.AST): JsonSchema =>
  Schema.toJsonSchemaDocument(Schema.make(ast), { referencePolicy: () => undefined }).schema

/** `Schema.optional` makes a field a union with `undefined`; a parameter is absent instead. */
const withoutUndefined = (ast: SchemaAST.AST): SchemaAST.AST => {
  if (!SchemaAST.isUnion(ast)) return ast
  const members = ast.types.filter((member) => !SchemaAST.isUndefined(member))
  const [only] = members
  return members.length === 1 && only !== undefined ? only : new SchemaAST.Union(members, ast.options)
}

/**
 * The schema of a parameter: its wire form with the rules that hold there
 * (lengths, patterns, literal lists). A decimal string that decodes to an
 * integer (such as `limit`) is described by its decoded side instead
 * (`integer` with `minimum`/`maximum` and its `default`): a query string
 * writes an integer as exactly those digits.
 */
const parameterSchema = (ast: SchemaAST.AST): JsonSchema => {
  const wire = inline(withoutUndefined(ast))
  if (wire.type !== "string") return wire
  const value = inline(withoutUndefined(SchemaAST.toType(ast)))
  return value.type === "integer" ? value : wire
}

/** A parameter from its field, described by the description of its key. */
const parameterOf = (name: string, field: Schema.Constraint, location: "path" | "query"): ParameterObject => {
  const description = field.ast.context?.annotations?.description
  return {
    name,
    in: location,
    required: !SchemaAST.isOptional(field.ast),
    ...(description === undefined ? {} : { description }),
    schema: parameterSchema(field.ast)
  }
}

/** A name of a path parameter of the table. */
type PathParameterName = Operations.AnyOperation["pathParameters"][number]

/** Every path parameter of the table, described where `Parameters.pathParameters` says more than its name. */
const pathParameterFields: Readonly<Record<PathParameterName, Schema.Constraint>> = pathParameterSchemas

const parametersOf = (operation: Operations.AnyOperation): ReadonlyArray<ParameterObject> => {
  const names: ReadonlyArray<PathParameterName> = operation.pathParameters
  const fields: Schema.Struct.Fields = operation.query.fields
  return [
    ...names.map((name) => parameterOf(name, pathParameterFields[name], "path")),
    ...Object.entries(fields).map(([name, field]) => parameterOf(name, field, "query"))
  ]
}

/** An operation's response envelope. */
const responseSchemaOf = (operation: Operations.AnyOperation): Schema.Top => {
  const item: Schema.Codec<unknown, unknown, never, never> = operation.item
  return Operations.responseSchema({ kind: operation.kind, item })
}

/**
 * The JSON Schemas of the wire forms of `schemas`, in their order, with the
 * schemas they share as OpenAPI components. A component is named after the
 * schema it describes (`Price`, not Schema 4's `PriceEncoded` for the
 * encoded side of a transformation), as in the Effect 3 edition.
 */
const jsonSchemas = (schemas: readonly [Schema.Top, ...Array<Schema.Top>]) =>
  Json.toMultiDocumentOpenApi3_1(SchemaRepresentation.toJsonSchemaMultiDocument(
    SchemaRepresentation.toRepresentations(Arr.map(schemas, (schema) => Schema.toCodecJson(schema).ast), {
      referencePolicy: ({ identifier }) => identifier?.replace(/Encoded$/u, "")
    })
  ))

/** The descriptions of the contract's primitives, by their names. */
const primitiveDescriptions = new Map(Object.values(Primitives).flatMap((value): ReadonlyArray<readonly [string, string]> => {
  if (!Schema.isSchema(value)) return []
  const identifier = SchemaAST.resolveIdentifier(value.ast)
  const description = SchemaAST.resolveDescription(value.ast)
  return identifier === undefined || description === undefined ? [] : [[identifier, description]]
}))

/**
 * The components with the descriptions of the primitives they are named
 * after: Schema 4 keeps the description of a transformation (`Price`,
 * `DecimalInteger`) or of a declaration with a JSON codec (`OpenObject`) on
 * the side it decodes to, not on its JSON form.
 */
const describe = (components: Json.Definitions): Json.Definitions =>
  Object.fromEntries(Object.entries(components).map(([name, schema]) => {
    const description = primitiveDescriptions.get(name)
    return [name, description === undefined || "description" in schema ? schema : { ...schema, description }]
  }))

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
 * @since 1.0.0
 */
export const make = (): Document => {
  const { definitions, schemas: [problem, ...bodies] } = jsonSchemas([Problem, ...Operations.all.map(responseSchemaOf)])
  const operations = Arr.zipWith(Operations.all, bodies, (operation, body) => ({ operation, parameters: parametersOf(operation), body }))
  return OpenApiDocument.make({ text: inline(Schema.String.ast), problem, components: describe(definitions) }, operations)
}
