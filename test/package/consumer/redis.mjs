// A consumer of effect-catalog/redis, once ioredis is installed: a key set and
// read back through RedisKeyValueStore, and a request admitted through
// RedisAdmission, on the Redis at REDIS_PORT. Prints the value it read back.
import { Effect, Layer, Option } from "effect"
import { Admission } from "effect-catalog"
import { RedisAdmission, RedisKeyValueStore } from "effect-catalog/redis"

const redis = { host: "127.0.0.1", port: Number(process.env.REDIS_PORT) }
const prefix = `consumer:${process.pid}:`

const program = Effect.gen(function*() {
  const store = yield* RedisKeyValueStore.make({ redis, prefix })
  yield* store.set("greeting", "hello")
  const read = yield* store.get("greeting")
  yield* store.clear
  const context = yield* Layer.build(RedisAdmission.layer(Admission.contractLimits, { redis, prefix }))
  const admission = yield* Effect.provide(Admission.Admission, context)
  const admitted = yield* admission.admit(Effect.succeed(Option.getOrElse(read, () => "nothing")))
  console.log(admitted)
}).pipe(Effect.scoped)

Effect.runPromise(program).catch((error) => {
  console.error(error)
  process.exitCode = 1
})
