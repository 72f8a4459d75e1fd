/**
 * A tiny RFC 4180 reader for the tests of the command's CSV: rows of
 * fields, quoted fields with doubled quotes, commas and line breaks. A text
 * that ends within a quoted field or a row (not on a line break) fails the
 * test: the command's CSV always ends on a whole row.
 *
 * @example
 * expect(Csv.rows("id,name\na,\"b, c\"\n")).toEqual([["id", "name"], ["a", "b, c"]])
 */
import { expect } from "@effect/vitest"

export const rows = (text: string): ReadonlyArray<ReadonlyArray<string>> => {
  const all: Array<ReadonlyArray<string>> = []
  let row: Array<string> = []
  let field = ""
  let quoted = false
  for (let index = 0; index < text.length; index++) {
    const char = text[index]
    if (quoted) {
      if (char === "\"" && text[index + 1] === "\"") {
        field += "\""
        index++
      } else if (char === "\"") quoted = false
      else field += char
    } else if (char === "\"") quoted = true
    else if (char === ",") {
      row.push(field)
      field = ""
    } else if (char === "\n") {
      all.push([...row, field])
      row = []
      field = ""
    } else field += char
  }
  expect(quoted, "the CSV ends within a quoted field").toBe(false)
  expect(row.length === 0 && field === "", "the CSV ends within a row").toBe(true)
  return all
}
