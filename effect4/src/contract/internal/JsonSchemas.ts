/**
 * The JSON Schemas of the OpenAPI document as Effect 4 makes them: Schema
 * 4's JSON Schema of each schema's JSON codec (`Schema.toCodecJson`), so
 * exact integers and prices are strings with a pattern, dates are strings
 * with a pattern, and an optional member (`Schema.optional`) may also be
 * `null`, as the JSON codec reads it; the schemas the responses share as
 * components, named and described as in the Effect 3 edition. `OpenApi`
 * (common/src/contract/OpenApi.ts) places them in the document.
 *
 * @internal
 */
import { Array as Arr, JsonSchema as Json, Schema, SchemaAST, SchemaRepresentation } from "effect"
import type * as OpenApiDocument from "../../../../rules/src/contract/OpenApiDocument.js"
import * as Operations from "../../../../common/src/contract/Operations.js"
import { pathParameters as pathParameterSchemas } from "../../../../common/src/contract/Parameters.js"
import { Problem } from "../../../../common/src/contract/Resources.js"
import * as Primitives from "../Primitives.js"

/** A JSON Schema of the document (OpenAPI 3.1 uses JSON Schema 2020-12). */
export type JsonSchema = Json.JsonSchema

type ParameterObject = OpenApiDocument.ParameterObject<JsonSchema>

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

/** The JSON Schemas of the document: of any string, of the problem body, of each operation's parameters and response, and the components they share. */
export const generated = (): {
  readonly schemas: OpenApiDocument.Schemas<JsonSchema>
  readonly operations: ReadonlyArray<OpenApiDocument.Described<JsonSchema>>
} => {
  const { definitions, schemas: [problem, ...bodies] } = jsonSchemas([Problem, ...Operations.all.map(responseSchemaOf)])
  const operations = Arr.zipWith(Operations.all, bodies, (operation, body) => ({ operation, parameters: parametersOf(operation), body }))
  return { schemas: { text: inline(Schema.String.ast), problem, components: describe(definitions) }, operations }
}
