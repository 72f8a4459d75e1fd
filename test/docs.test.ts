/**
 * Every example compiles as written: each TypeScript block of the documents
 * (README.md and every page of docs/) and each `@example` of the sources is
 * written to its own module in a temporary folder of the repository (so
 * that `effect-catalog` resolves to this package) and typechecked with the
 * project's settings, unused names aside. The documents' blocks fenced
 * ```ts effect4 are the Effect 4 edition's, which its own docs test
 * typechecks (`effect4/test/docs.test.ts`); this one skips them, but for
 * those fenced ```ts effect4 effect3, the same in both editions.
 * Every export of the public modules says since when it exists and the
 * category the reference groups it under.
 */
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { existsSync } from "node:fs"
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import * as DocExamples from "../scripts/docExamples.js"

const root = fileURLToPath(new URL("..", import.meta.url))

const { exampleBlocks, sourcesUnder, typecheck } = DocExamples.of(root)

/** The categories the reference groups exports under, as Effect's own documentation does. */
const categories: ReadonlySet<string> = new Set([
  "accessors",
  "combinators",
  "commands",
  "constants",
  "constructors",
  "errors",
  "guards",
  "layers",
  "metrics",
  "models",
  "operations",
  "schemas",
  "services",
  "utils"
])

/** The names a module exports: all of them, or only those another module re-exports by name. */
type Exported = "all" | ReadonlySet<string>

/** The entry points of package.json: `"./mirror": { "import": { "default": "./dist/esm/src/mirror/index.js" } }`. */
const Manifest = Schema.Struct({
  exports: Schema.Record({
    key: Schema.String,
    value: Schema.Union(Schema.String, Schema.Struct({ import: Schema.Struct({ default: Schema.String }) }))
  })
})

/** The source of an entry point of package.json's `exports`: `./dist/esm/src/mirror/index.js` is `src/mirror/index.ts`. */
const sourceOfEntry = (target: string): string => target.replace(/^\.\/dist\/esm\//, "").replace(/\.js$/, ".ts")

/** The module a relative specifier of `from` names, or null for a package. */
const moduleOf = (from: string, specifier: string): string | null =>
  specifier.startsWith(".") ? join(dirname(from), specifier.replace(/\.js$/, ".ts")) : null

const parse = async (source: string): Promise<ts.SourceFile> =>
  ts.createSourceFile(source, await readFile(join(root, source), "utf8"), ts.ScriptTarget.Latest, true)

/**
 * The public modules: those the package's entry points re-export, and those
 * these re-export in turn, with the names they take from each; nothing under
 * an `internal/` folder. The entry points themselves only gather modules.
 */
const publicModules = async (): Promise<ReadonlyMap<string, Exported>> => {
  const manifest = Schema.decodeUnknownSync(Manifest)(JSON.parse(await readFile(join(root, "package.json"), "utf8")))
  const entries = Object.values(manifest.exports).flatMap((target) => typeof target === "string" ? [] : [sourceOfEntry(target.import.default)])
  const found = new Map<string, Exported>()
  const visit = async (source: string, names: Exported): Promise<void> => {
    if (source.split("/").includes("internal") || !existsSync(join(root, source))) return
    const known = found.get(source)
    if (known === "all" || (known !== undefined && names !== "all" && [...names].every((name) => known.has(name)))) return
    found.set(source, names === "all" || known === undefined ? names : new Set([...known, ...names]))
    const file = await parse(source)
    const importedFrom = new Map(file.statements.flatMap((statement) => {
      const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || bindings === undefined || !ts.isNamedImports(bindings)) return []
      const from = statement.moduleSpecifier.text
      return bindings.elements.map((element) => [element.name.text, from] as const)
    }))
    for (const statement of file.statements) {
      if (!ts.isExportDeclaration(statement)) continue
      const specifier = statement.moduleSpecifier !== undefined && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : null
      const clause = statement.exportClause
      if (clause === undefined || ts.isNamespaceExport(clause)) {
        const target = specifier === null ? null : moduleOf(source, specifier)
        if (target !== null) await visit(target, "all")
        continue
      }
      for (const element of clause.elements) {
        const name = (element.propertyName ?? element.name).text
        const from = specifier ?? importedFrom.get(name)
        const target = from === undefined ? null : moduleOf(source, from)
        if (target !== null) await visit(target, new Set([name]))
      }
    }
  }
  for (const entry of entries) await visit(entry, "all")
  for (const entry of entries) found.delete(entry)
  return found
}

/** The names a top-level statement declares if it is exported. */
const exportedNames = (statement: ts.Statement): ReadonlyArray<string> => {
  const exported = ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
  if (!exported) return []
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.map((declaration) => declaration.name.getText())
  if (
    (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement) || ts.isModuleDeclaration(statement)) &&
    statement.name !== undefined
  ) return [statement.name.text]
  return []
}

/** The tags of the doc comment just before a statement, by name (`since`, `category`, …); null when it has none. */
const tagsOf = (statement: ts.Statement): ReadonlyMap<string, string> | null => {
  const docs = ts.getJSDocCommentsAndTags(ts.isVariableStatement(statement) ? statement.declarationList.declarations[0] ?? statement : statement)
    .filter(ts.isJSDoc)
  const doc = docs[docs.length - 1]
  if (doc === undefined) return null
  return new Map((doc.tags ?? []).map((tag) => [tag.tagName.text, ts.getTextOfJSDocComment(tag.comment)?.trim() ?? ""]))
}

/**
 * What is wrong with the docs of a public module's exports: each exported
 * name is documented, with `@since` and a known `@category`, on one of its
 * declarations (a schema constant's interface, an overload's implementation
 * need none), and any doc on an export has both.
 */
const undocumentedExports = async (source: string, names: Exported): Promise<ReadonlyArray<string>> => {
  const file = await parse(source)
  const declarations = file.statements.flatMap((statement) =>
    exportedNames(statement).filter((name) => names === "all" || names.has(name)).map((name) => ({ name, statement, tags: tagsOf(statement) }))
  )
  const complaints = declarations.flatMap(({ name, statement, tags }) => {
    if (tags === null) return []
    const at = `${source}:${file.getLineAndCharacterOfPosition(statement.getStart(file)).line + 1} ${name}`
    const category = tags.get("category")
    return [
      ...(tags.has("since") ? [] : [`${at}: no @since`]),
      ...(category === undefined ? [`${at}: no @category`] : categories.has(category) ? [] : [`${at}: @category ${category} is none of ${[...categories].join(", ")}`])
    ]
  })
  const documented = new Set(declarations.filter(({ tags }) => tags !== null).map(({ name }) => name))
  const bare = [...new Set(declarations.map(({ name }) => name))].filter((name) => !documented.has(name)).map((name) => `${source} ${name}: no doc comment`)
  return [...complaints, ...bare]
}

/** The blocks of README.md and of docs/ for this edition: ```ts, and ```ts effect4 effect3. */
const documentBlocks = () => DocExamples.documentBlocks(root, DocExamples.effect3)

/** The documents whose blocks are typechecked: README.md and the pages of docs/. */
const documents = () => DocExamples.documents(root)

/** The edition's sources and those both editions share (`common/src`), whose examples hold under either Effect. */
const sources = async () => [...await sourcesUnder("src"), ...await sourcesUnder("common/src")]

const sourceExampleBlocks = async () =>
  (await Promise.all((await sources()).map((source) => exampleBlocks(source, source.startsWith("common/src/") ? DocExamples.sharedEffect3 : DocExamples.plain)))).flat()

/**
 * The documents' blocks and the sources' examples, typechecked as one program (the
 * libraries' types are read and checked once for both); each test reads the
 * diagnostics of its own blocks, and those of the whole run.
 */
const typechecked = (() => {
  let started: Promise<ReadonlyArray<DocExamples.Failure>> | undefined
  return () => (started ??= Promise.all([documentBlocks(), sourceExampleBlocks()]).then((blocks) => typecheck(blocks.flat())))
})()

/** The diagnostics of the shared typecheck that concern blocks of `sources`, or the whole run. */
const failuresOf = async (sources: (source: string) => boolean) =>
  (await typechecked()).filter((failure) => failure.source === null || sources(failure.source)).map((failure) => failure.message)

describe("documentation", () => {
  it("every ts block of README.md and docs/ is fenced ```ts (this edition's), ```ts effect4 (the Effect 4 edition's) or ```ts effect4 effect3 (both)", async () => {
    const pages = await documents()
    expect(pages).toEqual(expect.arrayContaining(["README.md", "docs/reference.md"]))
    const fences = (await Promise.all(pages.map(async (document) =>
      (await readFile(join(root, document), "utf8")).split("\n").map((line, index) => ({ document, line: index + 1, fence: line.trimEnd() }))
        .filter(({ fence }) => /^```(ts|typescript)\b/.test(fence))
    ))).flat()
    expect(fences.filter(({ fence }) => !/^```(ts|typescript)( effect4( effect3)?)?$/.test(fence)).map(({ document, fence, line }) => `${document}:${line}: ${fence}`))
      .toEqual([])
    expect(fences.filter(({ fence }) => fence.endsWith(" effect4")).length).toBeGreaterThan(0)
    expect((await documentBlocks()).length).toBe(fences.filter(({ fence }) => !fence.endsWith(" effect4")).length)
  })

  it("every ts block of README.md and docs/ typechecks", async () => {
    expect((await documentBlocks()).length).toBeGreaterThan(0)
    const pages = new Set(await documents())
    const failures = await failuresOf((source) => pages.has(source))
    expect(failures, failures.join("\n")).toEqual([])
  }, 120_000)

  it("every @example of the sources typechecks", async () => {
    expect((await sourceExampleBlocks()).length).toBeGreaterThan(50)
    const failures = await failuresOf((source) => source.startsWith("src/") || source.startsWith("common/src/"))
    expect(failures, failures.join("\n")).toEqual([])
  }, 120_000)

  it("an export without @since, without a known @category or without a doc is named", async () => {
    await mkdir(join(root, ".tmp"), { recursive: true })
    const dir = await mkdtemp(join(root, ".tmp", "exports-"))
    try {
      const source = relative(root, join(dir, "Module.ts"))
      await writeFile(join(root, source), [
        "/**\n * @category schemas\n * @since 0.1.0\n */",
        "export const Item = 1",
        "export interface Item {}",
        "/** @since 0.1.0 */",
        "export const uncategorized = 1",
        "/**\n * @category miscellany\n * @since 0.1.0\n */",
        "export type Unknown = string",
        "/** @category models */",
        "export type Undated = string",
        "export const bare = 1",
        "const local = 1",
        ""
      ].join("\n"))
      expect(await undocumentedExports(source, "all")).toEqual([
        `${source}:8 uncategorized: no @category`,
        `${source}:13 Unknown: @category miscellany is none of ${[...categories].join(", ")}`,
        `${source}:15 Undated: no @since`,
        `${source} bare: no doc comment`
      ])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it("every export of the public modules has @since and a @category", async () => {
    const modules = await publicModules()
    expect([...modules.keys()]).toEqual(expect.arrayContaining(["common/src/contract/Operations.ts", "common/src/client/CatalogClient.ts", "common/src/mirror/Mirror.ts"]))
    expect([...modules.keys()].filter((source) => source.split("/").includes("internal"))).toEqual([])
    const failures = (await Promise.all([...modules].map(([source, names]) => undocumentedExports(source, names)))).flat()
    expect(failures, failures.join("\n")).toEqual([])
  })
})
