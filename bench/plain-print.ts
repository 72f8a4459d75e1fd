/**
 * The plain loop `catalog scan` is compared with, as a program: `fetch`,
 * `JSON.parse` and `console.log` of every item of `models`, in pages of 100,
 * following `links.next`.
 *
 *   node --import tsx bench/plain-print.ts <base URL> <key> [max items]
 */
import { plainPages } from "./plain.js"

const [baseUrl = "", key = "", max = "Infinity"] = process.argv.slice(2)
let printed = 0
for await (const page of plainPages(`${baseUrl}/models/?limit=100`, key)) {
  for (const item of page.data) {
    if (printed++ >= Number(max)) process.exit(0)
    console.log(JSON.stringify(item))
  }
}
