/**
 * The package packed once for the whole run (`npm pack` builds `dist/`, the
 * longest step of installing it), whichever test file asks first: that file
 * packs it into the run's `inject("packedFolder")`, and the others wait for
 * the tarball there. Two files packing at once would also rebuild `dist/`
 * under each other.
 *
 * @example
 * const installed = Effect.flatMap(packedOnce, (packed) => Effect.promise(() => installPacked(dir, [], packed)))
 */
import { Effect, Schedule, Schema } from "effect"
import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { inject } from "vitest"
import { pack, type Packed } from "../../scripts/packed.js"

const PackedJson = Schema.parseJson(Schema.Struct({ tarball: Schema.String, files: Schema.Array(Schema.String) }))

/** How long a file waits for another to pack: `npm pack` builds and typechecks the whole package. */
const patience = "3 minutes"

const folder = () => inject("packedFolder")

/** Whether this call is the first of the run to ask for the package (it creates the folder's claim). */
const claim = Effect.promise(() =>
  mkdir(join(folder(), "claim")).then(
    () => true,
    (error: unknown) => {
      if (error instanceof Error && "code" in error && error.code === "EEXIST") return false
      throw error
    }
  )
)

/** Packs the package into the folder and says so there: the tarball's listing, or why it could not be packed. */
const packHere = Effect.tryPromise({
  try: () => pack(folder()),
  catch: (error) => error
}).pipe(
  Effect.tap((packed) =>
    Effect.promise(async () => {
      await writeFile(join(folder(), "packed.json.partial"), Schema.encodeSync(PackedJson)(packed))
      await rename(join(folder(), "packed.json.partial"), join(folder(), "packed.json"))
    })
  ),
  Effect.tapError((error) => Effect.promise(() => writeFile(join(folder(), "failed.txt"), String(error)))),
  Effect.orDie
)

/** A file of the folder, or null while there is none. */
const readOrNull = (file: string) => readFile(join(folder(), file), "utf8").catch(() => null)

/** What the first file found: the tarball, or the reason it could not pack (a failure, retried until `patience` runs out). */
const readResult = Effect.promise(() => Promise.all([readOrNull("packed.json"), readOrNull("failed.txt")])).pipe(
  Effect.flatMap(([packed, failed]) =>
    failed !== null
      ? Effect.dieMessage(`another test file could not pack the package: ${failed}`)
      : packed === null
      ? Effect.fail("not packed yet")
      : Schema.decode(PackedJson)(packed).pipe(Effect.orDie)
  )
)

const waitForPack = readResult.pipe(
  Effect.retry(Schedule.spaced("100 millis")),
  Effect.timeoutFail({ duration: patience, onTimeout: () => new Error(`the package was not packed within ${patience}`) }),
  Effect.orDie
)

/**
 * The package packed for this run: packed now by the first file to ask,
 * waited for by the others.
 */
export const packedOnce: Effect.Effect<Packed> = Effect.flatMap(claim, (first) => (first ? packHere : waitForPack))
