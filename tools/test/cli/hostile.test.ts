/**
 * Text from a hostile service (`test/support/HostileText.ts`, served by a
 * stub over real HTTP) through the `catalog` command. On a real terminal
 * (tmux) none of it acts: after each output the pane keeps its title, its
 * earlier text and its colours, and U+FFFD (or, in JSON, a JSON escape)
 * shows where a control character was. To a pipe or a file, NDJSON and
 * JSON are byte-exact; CSV cells that begin like a formula are neutralised,
 * unless `--csv-raw`.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { inject } from "vitest"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cleanEnv } from "../../../scripts/cleanEnv.js"
import { catalog, keepSecret, root, spawnCatalog } from "../../../test/support/CatalogProcess.js"
import * as HostileText from "../../../test/support/HostileText.js"
import * as Stub from "../../../test/support/Stub.js"
import * as Terminal from "../../../test/support/Terminal.js"
import * as Servers from "../../../test/support/Servers.js"

Servers.tmux("the tests of hostile text on a terminal need it")

const key = "cat_test_hostile0123456789abcdef"
keepSecret(key)

/** What a terminal acts on, but the line feed: C0, DEL, C1 and the bidirectional controls. */
const acting = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

/** The title the pane has before the command runs, and the line it shows above the command's output. */
const title = "before the command"
const marker = "EARLIER TEXT"

/** A folder for the life of the scope. */
const scratch = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "catalog-hostile-"))),
  (folder) => Effect.promise(() => rm(folder, { recursive: true, force: true }))
)

/** The hostile service, answering as `HostileText.respond` says. */
const hostile = Effect.tap(Stub.Stub, (service) => service.answer(HostileText.respond(service)))

/** What a terminal shows once a program has ended. */
interface Seen {
  readonly code: number
  readonly screen: string
  readonly styled: string
  readonly title: string
}

/**
 * Runs `program` on a new terminal (wide enough that no line wraps) whose
 * title is `title` and whose screen shows `marker` first (both written to
 * stderr, the terminal even when stdout goes to a file); what it shows once
 * the program has ended.
 */
const shownBy = (program: ReadonlyArray<string>, stdoutTo?: string) =>
  Effect.gen(function*() {
    const service = yield* hostile
    const folder = yield* scratch
    const terminal = yield* Terminal.open({
      command: ["sh", "-c", String.raw`printf '\033]2;%s\033\\%s\n' "$1" "$2" >&2; shift 2; exec "$@"`, "sh", title, marker, ...program],
      cwd: root,
      env: {
        ...Object.fromEntries(Object.entries(cleanEnv()).filter(([name]) => !name.startsWith("CATALOG_"))),
        CATALOG_API_KEY: key,
        CATALOG_BASE_URL: service.baseUrl,
        CATALOG_TIME_SCALE: "0.001",
        CATALOG_STATE_DIR: folder
      },
      columns: 1000,
      rows: 40,
      ...(stdoutTo === undefined ? {} : { stdoutTo })
    })
    const code = yield* terminal.exited("15 seconds")
    const seen: Seen = { code, screen: yield* terminal.screen, styled: yield* terminal.styledScreen, title: yield* terminal.title }
    expect(seen.screen).not.toContain(key)
    return seen
  })

/** The `catalog` command on a terminal. */
const catalogShown = (args: ReadonlyArray<string>, stdoutTo?: string) => shownBy([process.execPath, inject("catalogCommand"), ...args], stdoutTo)

/** The pane kept its title and its earlier text, shows no colour, and shows U+FFFD where a control was. */
const expectInert = (seen: Seen) => {
  expect(seen.title).toBe(title)
  expect(seen.screen.split("\n")[0]).toBe(marker)
  expect(seen.styled).not.toContain("\u001b")
  expect(seen.screen).not.toMatch(acting)
}

/** The lines of a screen after the marker, blank ones left out. */
const after = (screen: string) => screen.split("\n").slice(1).filter((line) => line.trim() !== "")

/** The row of a CSV text that begins with `id` (the rows read here hold no line feed). */
const rowOf = (csv: string, id: string) => csv.split("\n").find((row) => row.startsWith(`${id},`)) ?? ""

describe("hostile text", () => {
  layer(Stub.layer, { excludeTestServices: true })((it) => {
    it.scoped("the checks see a takeover: the same text written raw retitles the pane, clears its earlier text and turns it red", () =>
      Effect.gen(function*() {
        const seen = yield* shownBy(["printf", "%s%s\\n", HostileText.takeover, "red text"])
        expect(seen.title).toBe("pwned")
        expect(seen.screen).not.toContain(marker)
        expect(seen.styled).toContain("\u001b[31m")
      }), 30_000)

    it.scoped("get: a problem's detail and request id on stderr show as U+FFFD, the pane unchanged (exit 4)", () =>
      Effect.gen(function*() {
        const seen = yield* catalogShown(["get", "model", "acme", "missing", "--retries", "0"])
        expect(seen.code).toBe(4)
        expectInert(seen)
        expect(after(seen.screen)).toEqual([
          "catalog: NotFound: \uFFFD]0;pwned\uFFFD\uFFFD[2J\uFFFD[31m (code not_found, request req_\uFFFD2J)"
        ])
      }), 30_000)

    it.scoped("get: a problem with a title alone (the alternate screen, a new title) shows as U+FFFD", () =>
      Effect.gen(function*() {
        const seen = yield* catalogShown(["get", "model", "acme", "titled", "--retries", "0"])
        expect(seen.code).toBe(4)
        expectInert(seen)
        expect(after(seen.screen)).toEqual(["catalog: NotFound: \uFFFD[?1049h\uFFFD]2;pwned\uFFFD\\ (code not_found, request req_\uFFFD2J)"])
      }), 30_000)

    it.scoped("get: pretty JSON with the controls as JSON escapes, the same resource", () =>
      Effect.gen(function*() {
        const service = yield* Stub.Stub
        const seen = yield* catalogShown(["get", "model", "acme", "ok"])
        expect(seen.code).toBe(0)
        expectInert(seen)
        const json = after(seen.screen).join("\n")
        expect(json).toContain(String.raw`"name": "8-bit CSI\u009b2J and \u001b]0;pwned\u0007\u001b[2J\u001b[31m"`)
        expect(json).toContain(String.raw`"description": "\u202eevil\u202c"`)
        expect(JSON.parse(json)).toEqual(HostileText.model(service.baseUrl))
      }), 30_000)

    it.scoped("scan: NDJSON with the controls as JSON escapes, each line the item sent", () =>
      Effect.gen(function*() {
        const service = yield* Stub.Stub
        const seen = yield* catalogShown(["scan", "models"])
        expect(seen.code).toBe(0)
        expectInert(seen)
        const models = HostileText.models(service.baseUrl)
        const [summary, ...items] = after(seen.screen).reverse()
        expect(summary).toMatch(new RegExp(`^catalog: scan models: ${models.length} items, 1 page, 1 unit, `))
        expect(items.reverse().map((line) => JSON.parse(line))).toEqual(models)
      }), 30_000)

    it.scoped("scan --format csv: U+FFFD for each control, line feeds of quoted cells kept, formulas neutralised", () =>
      Effect.gen(function*() {
        const seen = yield* catalogShown(["scan", "models", "--format", "csv", "--fields", "id,name", "--quiet"])
        expect(seen.code).toBe(0)
        expectInert(seen)
        expect(after(seen.screen)).toEqual([
          "id,name",
          "acme/control-0,\uFFFD]0;pwned\uFFFD\uFFFD[2J\uFFFD[31mred",
          "acme/control-1,\"bare\uFFFDCR writes over the line\"",
          "acme/control-2,DEL\uFFFD and NEL\uFFFD here",
          "acme/control-3,8-bit CSI\uFFFD2J clears",
          "acme/control-4,8-bit OSC\uFFFD2;pwned\uFFFD titles",
          "acme/control-5,\uFFFD]8;;http://x.example/\uFFFD\\a link\uFFFD]8;;\uFFFD\\",
          "acme/control-6,\uFFFD[?1049halternate screen",
          "acme/control-7,bidi \uFFFDgnp.exe\uFFFD and \uFFFDisolated\uFFFD",
          "acme/formula-0,\"'=HYPERLINK(\"\"http://x\"\",\"\"click\"\")\"",
          "acme/formula-1,\"'+1+cmd|' /C calc'!A0\"",
          "acme/formula-2,\"'@SUM(1)\"",
          "acme/formula-3,\"'-2+3\"",
          "acme/formula-4,\"'\uFFFDx\"",
          "acme/formula-5,\"'\uFFFDx\""
        ])
      }), 30_000)

    it.scoped("scan --format table: U+FFFD in the cells", () =>
      Effect.gen(function*() {
        const seen = yield* catalogShown(["scan", "models", "--format", "table", "--fields", "name", "--quiet"])
        expect(seen.code).toBe(0)
        expectInert(seen)
        expect(after(seen.screen).slice(2, 4)).toEqual(["\uFFFD]0;pwned\uFFFD\uFFFD[2J\uFFFD[31mred", "bare CR writes over the line"])
      }), 30_000)

    it.scoped("scan --out /dev/tty: a file that is the terminal is made inert too, with no progress line among the items", () =>
      Effect.gen(function*() {
        const service = yield* Stub.Stub
        const folder = yield* scratch
        const stdout = join(folder, "stdout")
        const seen = yield* catalogShown(["scan", "models", "--out", "/dev/tty", "--no-total"], stdout)
        expect(seen.code, seen.screen).toBe(0)
        expectInert(seen)
        const lines = after(seen.screen)
        expect(lines.at(-1)).toMatch(/^catalog: scan models: 14 items, 1 page, 1 unit, /)
        expect(lines.slice(0, -1).map((line) => JSON.parse(line))).toEqual(HostileText.models(service.baseUrl))
        expect(yield* Effect.promise(() => readFile(stdout, "utf8"))).toBe("")
      }), 30_000)

    it.effect("to a pipe: NDJSON (on stdout or --out /dev/stdout), a JSON array and a resource byte-exact; the error line on stderr inert all the same", () =>
      Effect.gen(function*() {
        const service = yield* hostile
        const target = { baseUrl: service.baseUrl, key }
        const models = HostileText.models(service.baseUrl)
        const [ndjson, named, array, one, missing] = yield* Effect.promise(() =>
          Promise.all([
            catalog(["scan", "models", "--quiet"], target),
            // A pipe of the shell: the stdout of a child of node is a socket, which /dev/stdout cannot open.
            spawnCatalog("sh", ["-c", `"$0" "$1" scan models --quiet --out /dev/stdout | cat`, process.execPath, inject("catalogCommand")], target),
            catalog(["scan", "models", "--format", "json", "--quiet"], target),
            catalog(["get", "model", "acme", "ok"], target),
            catalog(["get", "model", "acme", "missing", "--retries", "0"], target)
          ])
        )
        expect(ndjson.code, ndjson.stderr).toBe(0)
        expect(ndjson.stdout).toBe(models.map((model) => `${JSON.stringify(model)}\n`).join(""))
        expect(ndjson.stdout.split("\n").slice(0, -1).map((line) => JSON.parse(line))).toEqual(models)
        expect(ndjson.stdout).toMatch(/\u009b/)
        // A pipe named by --out cannot seek: the items are written one after the other all the same.
        expect(named.code, named.stderr).toBe(0)
        expect(named.stdout).toBe(ndjson.stdout)
        expect(array.stdout).toBe(`[\n${models.map((model) => JSON.stringify(model)).join(",\n")}\n]\n`)
        expect(JSON.parse(array.stdout)).toEqual(models)
        expect(one.stdout).toBe(`${JSON.stringify(HostileText.model(service.baseUrl))}\n`)
        expect(missing.code).toBe(4)
        expect(missing.stdout).toBe("")
        expect(missing.stderr).toBe("catalog: NotFound: \uFFFD]0;pwned\uFFFD\uFFFD[2J\uFFFD[31m (code not_found, request req_\uFFFD2J)\n")
      }), 30_000)

    it.scoped("CSV in a file: every cell as sent, but formulas neutralised (a ' before them, quoted); --csv-raw writes them as they are", () =>
      Effect.gen(function*() {
        const service = yield* hostile
        const folder = yield* scratch
        const target = { baseUrl: service.baseUrl, key }
        const [neutralised, raw] = [join(folder, "models.csv"), join(folder, "raw.csv")]
        const runs = yield* Effect.promise(() =>
          Promise.all([
            catalog(["scan", "models", "--format", "csv", "--fields", "id,name,offer_count", "--out", neutralised], target),
            catalog(["scan", "models", "--format", "csv", "--fields", "id,name,offer_count", "--csv-raw", "--out", raw], target)
          ])
        )
        for (const run of runs) expect(run.code, run.stderr).toBe(0)
        const [safe, unsafe] = yield* Effect.promise(() => Promise.all([readFile(neutralised, "utf8"), readFile(raw, "utf8")]))
        const quoted = (text: string) => `"${text.replaceAll("\"", "\"\"")}"`
        HostileText.formulas.forEach((formula, index) => {
          expect(rowOf(safe, `acme/formula-${index}`)).toBe(`acme/formula-${index},${quoted(`'${formula}`)},1`)
          expect(rowOf(unsafe, `acme/formula-${index}`)).toBe(`acme/formula-${index},${/[",\r\n]/.test(formula) ? quoted(formula) : formula},1`)
        })
        // Controls stay as sent in a file: the file is data, for whatever reads it.
        expect(rowOf(safe, "acme/control-0")).toBe(`acme/control-0,${HostileText.takeover}red,1`)
        expect(rowOf(safe, "acme/control-3")).toBe("acme/control-3,8-bit CSI\u009b2J clears,1")
      }), 30_000)
  })
})
