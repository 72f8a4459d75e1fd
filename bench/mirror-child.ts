/**
 * The sync of benchmark 10's memory figures, alone in its process so that
 * its memory is measured alone. `bench/mirror.ts` compiles it (and the
 * library it imports) to JavaScript and runs it without a TypeScript loader:
 *
 *   node --expose-gc [V8 flags] .tmp/bench-memory/bench/mirror-child.js <base_url> <key> <sqlite file>
 *
 * It syncs the models (limits off) into a new SQLite mirror and samples its
 * peak RSS and its live heap (after a full collection) when 10,000 items are
 * committed and at the end, then prints one JSON line.
 *
 * The sampling and the report are `bench/syncSampling.ts`'s, which the
 * Effect 4 edition's process (`effect4/bench/mirror-child.ts`) runs with its
 * own mirror.
 */
import { type LoadSync, sampledSync } from "./syncSampling.js"

/** The Effect 3 edition's sync, over undici. */
const effect3: LoadSync = async () => {
  const { Effect, Stream } = await import("effect")
  const { Admission } = await import("../src/index.js")
  const { Mirror, MirrorDatabase } = await import("../src/mirror/index.js")
  const { clientOf } = await import("./client.js")
  return ({ baseUrl, file, key }, committed) =>
    Effect.runPromise(
      Mirror.sync("models", { onPage: (progress) => Effect.sync(() => committed(progress.items)) }).pipe(
        Stream.runCount,
        Effect.provide(MirrorDatabase.layerSqlite(file)),
        Effect.provide(clientOf(baseUrl, key, { limits: Admission.noLimits }))
      )
    )
}

await sampledSync("mirror-child", process.argv.slice(2), effect3)
