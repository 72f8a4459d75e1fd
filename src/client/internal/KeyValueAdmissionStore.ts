/**
 * The admission store in memory, remembered in the `KeyValueStore` in
 * context: when its recent requests were answered, and its last read of the
 * live allowance, for the next run on the same account.
 *
 * @internal
 */
import * as KeyValueStore from "@effect/platform/KeyValueStore"
import { Clock, Effect, Layer, Option, Ref, Schema } from "effect"
import { AdmissionStore, type Allowance } from "../../../common/src/client/AdmissionStore.js"
import type { Limits } from "../../../rules/src/client/AdmissionWindows.js"
import { memoryStore } from "../../../common/src/client/internal/MemoryStore.js"

/** When the recent requests were answered, as kept under the key. */
const Answered = Schema.parseJson(Schema.Array(Schema.Number))

/** The last read of the live allowance, as kept under `<key>.allowance`. */
const LastRead = Schema.parseJson(Schema.Struct({ minuteLimit: Schema.Number, readAt: Schema.Number }))

/** The store in memory as the `AdmissionStore` service, kept in the `KeyValueStore` in context (see `Admission.layerKeyValueStore`). */
export const layerStore = (limits: Limits, key: string): Layer.Layer<AdmissionStore, never, KeyValueStore.KeyValueStore> =>
  Layer.scoped(
    AdmissionStore,
    Effect.gen(function*() {
      const keyValueStore = yield* KeyValueStore.KeyValueStore
      const saved = keyValueStore.forSchema(Answered)
      const savedRead = keyValueStore.forSchema(LastRead)
      const allowanceKey = `${key}.allowance`
      const answered = yield* saved.get(key).pipe(Effect.map(Option.getOrElse(() => [])), Effect.orElseSucceed(() => []))
      const lastRead = yield* savedRead.get(allowanceKey).pipe(Effect.orElseSucceed(() => Option.none()))
      const store = yield* memoryStore(limits, answered, lastRead)
      const save = Effect.flatMap(store.answered, (all) => Effect.ignore(saved.set(key, all)))
      // Saved at most once a second while requests go, and when the layer is released.
      const savedAt = yield* Ref.make(Number.NEGATIVE_INFINITY)
      const saveSoon = Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.flatMap(Ref.modify(savedAt, (last) => now - last >= 1_000 ? [true, now] as const : [false, last] as const), (due) =>
          due ? save : Effect.void))
      yield* Effect.addFinalizer(() => save)
      const allowance = store.allowance
      return {
        ...store,
        turn: Effect.tap(store.turn, () => saveSoon),
        ...(allowance === undefined ? {} : {
          allowance: {
            ...allowance,
            set: (read: Allowance) => Effect.zipRight(allowance.set(read), Effect.ignore(savedRead.set(allowanceKey, read)))
          }
        })
      }
    })
  )
