/**
 * The check of an item passed on in its wire form: that each field has the
 * type the resource's schema gives it on the wire (ids and other strings,
 * counts as integers, booleans, nulls where allowed, decimal strings where
 * exact values are sent as text), without decoding the item into its typed
 * model. It is `Schema.is(Schema.encodedBoundSchema(schema))` in meaning,
 * compiled from the schema's AST into plain predicates for the nodes the
 * resources are made of (keywords, literals, refinements, unions, structs,
 * arrays), with Schema's own guard for any other node: several times faster
 * than the generic guard, which matters on a path that checks every item of
 * every page. An item it refuses is validated by Schema itself, for the
 * issue that names the field.
 *
 * For example:
 *
 *   const check = WireCheck.checker(Schema.Struct({ id: Schema.String, offer_count: Schema.Int }))
 *   check({ id: "a", offer_count: 1 }) // undefined
 *   check({ id: "a", offer_count: 2.5 }) // the issue at offer_count: Expected an integer, actual 2.5
 */
import { Either, Option, ParseResult, Predicate, Schema, type SchemaAST as AST } from "effect"

/** A compiled guard of one node of a schema. */
type Guard = (input: unknown) => boolean

const parseOptions: AST.ParseOptions = {}

/** The guard of a node: a plain predicate where the node is one resources are made of, Schema's own guard otherwise. */
const compile = (ast: AST.AST): Guard => {
  switch (ast._tag) {
    case "StringKeyword":
      return Predicate.isString
    case "NumberKeyword":
      return Predicate.isNumber
    case "BooleanKeyword":
      return Predicate.isBoolean
    case "UndefinedKeyword":
      return Predicate.isUndefined
    case "Literal": {
      const literal = ast.literal
      return (input) => input === literal
    }
    case "Refinement": {
      const from = compile(ast.from)
      return (input) => from(input) && Option.isNone(ast.filter(input, parseOptions, ast))
    }
    case "Union": {
      const members = ast.types.map(compile)
      return (input) => {
        for (const member of members) if (member(input)) return true
        return false
      }
    }
    case "TupleType": {
      const [rest, ...others] = ast.rest
      if (ast.elements.length > 0 || rest === undefined || others.length > 0) break
      const element = compile(rest.type)
      return (input) => Array.isArray(input) && input.every((value) => element(value))
    }
    case "TypeLiteral": {
      if (ast.indexSignatures.length > 0) break
      const fields = ast.propertySignatures.map((signature) => ({
        name: signature.name,
        isOptional: signature.isOptional,
        // A name `Object.prototype` has too (`constructor`) must be read as the item's own member only.
        isInherited: signature.name in Object.prototype,
        guard: compile(signature.type)
      }))
      return (input) => {
        if (!Predicate.isRecord(input)) return false
        for (const field of fields) {
          // Asking whether a member is the item's own costs more than reading it: only an undefined one is asked about.
          const value = field.isInherited && !Object.hasOwn(input, field.name) ? undefined : input[field.name]
          const present = value !== undefined || Object.hasOwn(input, field.name)
          if (present ? !field.guard(value) : !field.isOptional) return false
        }
        return true
      }
    }
  }
  const is = ParseResult.is(Schema.make(ast))
  return (input) => is(input)
}

/**
 * The check of items of `schema` in their wire form: `undefined` for an
 * item whose fields all have their wire types, or the issue that names the
 * first field that has not.
 */
export const checker = (schema: Schema.Schema.AnyNoContext): (item: unknown) => ParseResult.ParseIssue | undefined => {
  const encoded = Schema.encodedBoundSchema(schema)
  const accepts = compile(encoded.ast)
  const validate = ParseResult.validateEither(encoded)
  return (item) => accepts(item) ? undefined : Either.getLeft(validate(item)).pipe(Option.getOrUndefined)
}
