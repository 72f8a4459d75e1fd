/**
 * The Effect 4 edition's rows of benchmark 2 (client overhead), under Node
 * 22 in a process of their own, driven round by round by `bench/overhead.ts`
 * against the same simulator as the Effect 3 edition's rows:
 *
 *   CATALOG_BENCH_KEY=<key> node --import tsx bench/overhead-child.ts <base_url>
 *
 * (from effect4/, with its own Node 22 and tsx). It first prints one JSON line
 * with the Node version and the cost of decoding one 100-item page (
 * `JSON.parse`, and Schema 4 over `JSON.parse`, in microseconds). Then, for
 * each line `round` on its standard input, it scans the first 3,000 models at
 * page size 100 three ways and prints their samples (items, seconds, CPU
 * microseconds) as one JSON line:
 *
 * - `client`: the Effect 4 client as it comes (limits off), over
 *   @effect/platform-node's `NodeHttpClient.layerUndici`, a new client (an
 *   empty cache) each round, built before its scan is timed;
 * - `plain`: the plain `fetch` + `JSON.parse` loop of `bench/plain.ts`;
 * - `floor`: `effect/http`'s `HttpClient` over the same `layerUndici`, each
 *   page decoded with Schema 4 and the edition's `Envelopes`/`Resources`
 *   schemas, `links.next` followed, nothing else.
 *
 * It ends when its standard input does.
 */
import { createInterface } from "node:readline"
import { measure, plainScan } from "../../bench/overheadScan.js"
import { clientScan, clientsOf, decodeCosts, floorScan, targetOf } from "./scans.js"

const main = async () => {
  const target = targetOf("overhead-child.ts")
  // One HTTP client for every round; a new catalog client (an empty cache) for each.
  const clients = await clientsOf(target)
  process.stdout.write(`${JSON.stringify({ node: process.version, ...(await decodeCosts(target)) })}\n`)
  for await (const line of createInterface({ input: process.stdin })) {
    if (line !== "round") throw new Error(`unknown command: ${line}`)
    const client = await clientScan(clients.layer)
    const plain = await measure(plainScan(target))
    const floor = await measure(floorScan(clients.http, target))
    process.stdout.write(`${JSON.stringify({ client, plain, floor })}\n`)
  }
  await clients.close()
}

main().catch((error: unknown) => {
  process.stderr.write(`overhead-child: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exit(1)
})
