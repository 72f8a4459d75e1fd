/**
 * A full scan of the Skills to an NDJSON file, one Skill per line in its
 * wire form.
 *
 *   node scan-skills.ts [skills.ndjson]
 *
 * (configured from CATALOG_API_KEY, CATALOG_BASE_URL and optionally
 * CATALOG_TIME_SCALE, as in first-call.ts)
 *
 * The stream fetches a page only when the previous one has been written, so
 * memory stays flat however large the catalog; it follows `links.next`,
 * shrinks pages that are too large, restarts an expired listing, and emits
 * every Skill exactly once.
 */
import { NodeHttpClient, NodeRuntime, NodeServices } from "@effect/platform-node"
import { Console, Effect, FileSystem, Layer, Ref, Schema, Stream } from "effect"
import { CatalogClient, Resources } from "effect-catalog"

const path = process.argv[2] ?? "skills.ndjson"

// Decoded Skills hold exact values (`installs` is a bigint); encoding gives
// back the wire form (a decimal-integer string), so nothing is rounded.
const encodeSkill = Schema.encodeEffect(Resources.Skill)

const program = Effect.gen(function*() {
  const catalog = yield* CatalogClient.CatalogClient
  const fs = yield* FileSystem.FileSystem
  const written = yield* Ref.make(0)

  yield* catalog.skills({ limit: 50 }).pipe(
    // Effect 4's mapEffect also passes the index, which encodeSkill would take for its options.
    Stream.mapEffect((skill) => encodeSkill(skill)),
    Stream.map((wire) => `${JSON.stringify(wire)}\n`),
    // A progress line on stderr every 100 Skills, so stdout stays clean.
    Stream.tap(() =>
      Ref.updateAndGet(written, (n) => n + 1).pipe(
        Effect.tap((n) => n % 100 === 0 ? Console.error(`${n} Skills…`) : Effect.void)
      )
    ),
    Stream.encodeText,
    // The file sink writes each chunk as it comes (and truncates the file first).
    Stream.run(fs.sink(path))
  )

  yield* Console.log(`Wrote ${yield* Ref.get(written)} Skills to ${path}`)
})

const CatalogLive = CatalogClient.layerConfig().pipe(Layer.provide(NodeHttpClient.layerUndici))

// NodeServices.layer gives the FileSystem (and Path, ChildProcessSpawner, Stdio, Terminal).
program.pipe(Effect.provide(Layer.merge(CatalogLive, NodeServices.layer)), NodeRuntime.runMain)
