/**
 * The JSON Schemas of the OpenAPI document as Effect 3 makes them
 * (`JSONSchema.fromAST`, OpenAPI 3.1's target): every schema the wire form
 * (the encoded side), so exact integers and prices are strings with a
 * pattern, dates are strings; the schemas the responses share as
 * components. `OpenApi` (common/src/contract/OpenApi.ts) places them in the
 * document.
 *
 * @internal
 */
import { JSONSchema, Option, Schema, SchemaAST as AST } from "effect"
import type * as OpenApiDocument from "../../../rules/src/contract/OpenApiDocument.js"
import * as Operations from "../../../common/src/contract/Operations.js"
import { pathParameters as pathParameterSchemas } from "../../../common/src/contract/Parameters.js"
import { Problem } from "../../../common/src/contract/Resources.js"

/** A JSON Schema of the document (OpenAPI 3.1 uses JSON Schema 2020-12). */
export type JsonSchema = JSONSchema.JsonSchema7

type ParameterObject = OpenApiDocument.ParameterObject<JsonSchema>

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

/** The JSON Schemas of the document: of any string, of the problem body, of each operation's parameters and response, and the components they share. */
export const generated = (): {
  readonly schemas: OpenApiDocument.Schemas<JsonSchema>
  readonly operations: ReadonlyArray<OpenApiDocument.Described<JsonSchema>>
} => {
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
  return { schemas: { text: inline(Schema.String.ast), problem, components: definitions }, operations }
}
