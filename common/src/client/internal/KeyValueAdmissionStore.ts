/**
 * The admission store in memory, remembered in the `KeyValueStore` in
 * context: when its recent requests were answered, and its last read of the
 * live allowance, for the next run on the same account.
 *
 * @internal
 */
import { Clock, Effect, fromJsonString, KeyValueStore, type Layer, Option, Ref, Schema, schemaStore, scopedLayer } from "#edition/internal/Edition.js"
import { AdmissionStore, type Allowance, type Store } from "../AdmissionStore.js"
import type { Limits } from "#edition/client/AdmissionWindows.js"
import { memoryStore } from "./MemoryStore.js"

/**
 * When the recent requests were answered, as kept under the key: a JSON
 * array, itself kept as a JSON string, as the Effect 3 edition keeps it (a
 * state directory serves either edition).
 */
const Answered = fromJsonString(Schema.Array(Schema.Number))

/** The last read of the live allowance, as kept under `<key>.allowance` (a JSON string too, as the Effect 3 edition keeps it). */
const LastRead = fromJsonString(Schema.Struct({ minuteLimit: Schema.Number, readAt: Schema.Number }))

/** Saves at most once a second, by the clock: `save` when the last was a second ago or more, else nothing. */
const throttled = (save: Effect.Effect<void>): Effect.Effect<Effect.Effect<void>> =>
  Effect.map(Ref.make(Number.NEGATIVE_INFINITY), (savedAt) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.flatMap(Ref.modify(savedAt, (last) => now - last >= 1_000 ? [true, now] as const : [false, last] as const), (due) =>
        due ? save : Effect.void)))

/** The store in memory as the `AdmissionStore` service, kept in the `KeyValueStore` in context (see `Admission.layerKeyValueStore`). */
export const layerStore = (limits: Limits, key: string): Layer.Layer<AdmissionStore, never, KeyValueStore.KeyValueStore> =>
  scopedLayer(
    AdmissionStore,
    Effect.gen(function*() {
      const keyValueStore = yield* KeyValueStore.KeyValueStore
      const saved = schemaStore(keyValueStore, Answered)
      const savedRead = schemaStore(keyValueStore, LastRead)
      const allowanceKey = `${key}.allowance`
      // A store that fails, or holds what cannot be read, is treated as empty.
      const answered = yield* saved.get(key).pipe(Effect.map(Option.getOrElse((): ReadonlyArray<number> => [])), Effect.orElseSucceed(() => []))
      const lastRead = yield* savedRead.get(allowanceKey).pipe(Effect.orElseSucceed(() => Option.none<Allowance>()))
      const store = yield* memoryStore(limits, answered, lastRead)
      const save = Effect.flatMap(store.answered, (all) => Effect.ignore(saved.set(key, all)))
      // Saved at most once a second while requests go, and when the layer is released.
      const saveSoon = yield* throttled(save)
      yield* Effect.addFinalizer(() => save)
      const allowance = store.allowance
      const kept: Store = {
        ...store,
        turn: Effect.tap(store.turn, () => saveSoon),
        ...(allowance === undefined ? {} : {
          allowance: {
            ...allowance,
            set: (read: Allowance) => Effect.andThen(allowance.set(read), Effect.ignore(savedRead.set(allowanceKey, read)))
          }
        })
      }
      return kept
    })
  )
