/**
 * The simulator's change process (`tools/src/simulator/data/Changes.ts`):
 * fixed by the seed however it is asked, heavy-tailed rates (most records
 * rarely, a few hourly), and Poisson changes at each record's rate.
 */
import { describe, expect, it } from "vitest"
import { ChangeProcess } from "../../src/simulator/data/Changes.js"
import * as SimulatorStandalone from "../../src/simulator/Standalone.js"

const hour = 3600
const day = 86_400
const models = 0

describe("the simulator's change process", () => {
  it("is fixed by the seed: the same histories whatever was asked before, other ones under another seed", () => {
    const asked = new ChangeProcess(1)
    for (let index = 0; index < 50; index++) asked.versionAt(models, index, 30 * day)
    const fresh = new ChangeProcess(1)
    const other = new ChangeProcess(2)
    let differ = 0
    for (let index = 0; index < 50; index++) {
      expect(asked.history(models, index, day)).toEqual(fresh.history(models, index, day))
      expect(asked.versionAt(models, index, 10 * day)).toBe(fresh.history(models, index, 10 * day).length)
      if (other.rateOf(models, index) !== fresh.rateOf(models, index)) differ++
    }
    expect(differ).toBe(50)
  })

  it("draws heavy-tailed rates: most records change less than every ten days, a few every hour, none more than four times an hour", () => {
    const changes = new ChangeProcess(1)
    const rates = Array.from({ length: 10_000 }, (_, index) => changes.rateOf(models, index)).sort((a, b) => a - b)
    expect(rates[5000]).toBeLessThan(1 / (10 * day))
    const hourly = rates.filter((rate) => rate >= 1 / hour).length
    expect(hourly).toBeGreaterThanOrEqual(10)
    expect(hourly).toBeLessThanOrEqual(100)
    expect(rates.at(-1)).toBeLessThanOrEqual(4 / hour)
    // Families draw apart: the offers of model 3 keep a rate of their own.
    expect(changes.rateOf(1, 3)).not.toBe(changes.rateOf(models, 3))
  })

  it("changes each record as a Poisson process at its rate: counts near λt over many records, exponential gaps for one", () => {
    const changes = new ChangeProcess(3)
    const span = 30 * day
    let counted = 0
    let expected = 0
    for (let index = 0; index < 3000; index++) {
      counted += changes.versionAt(models, index, span)
      expected += changes.rateOf(models, index) * span
    }
    expect(Math.abs(counted / expected - 1)).toBeLessThan(0.05)
    const fast = Array.from({ length: 10_000 }, (_, index) => index).find((index) => changes.rateOf(models, index) >= 1 / hour) ?? 0
    const times = changes.history(models, fast, 400 * day)
    const gaps = times.map((time, i) => time - (times[i - 1] ?? 0))
    const mean = gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length
    const deviation = Math.sqrt(gaps.reduce((sum, gap) => sum + (gap - mean) ** 2, 0) / gaps.length)
    expect(Math.abs(mean * changes.rateOf(models, fast) - 1)).toBeLessThan(0.05)
    expect(Math.abs(deviation / mean - 1)).toBeLessThan(0.05)
  })

  it("counts a change at the moment asked as made, and none before the first", () => {
    const changes = new ChangeProcess(1)
    const first = changes.history(models, 5, 365 * day)[0] ?? 0
    expect(changes.versionAt(models, 5, first)).toBe(1)
    expect(changes.versionAt(models, 5, first - 1e-6)).toBe(0)
    expect(changes.versionAt(models, 5, 0)).toBe(0)
  })

  it("under the daily pattern keeps each record's mean rate, with a daily cycle and an hour's burst each day", () => {
    const steady = new ChangeProcess(4)
    const daily = new ChangeProcess(4, "daily")
    const span = 20 * day
    let steadyCount = 0
    let dailyCount = 0
    const byHour = new Array<number>(24).fill(0)
    for (let index = 0; index < 3000; index++) {
      steadyCount += steady.versionAt(models, index, span)
      const times = daily.history(models, index, span)
      dailyCount += times.length
      for (const time of times) byHour[Math.floor((time % day) / hour)] = (byHour[Math.floor((time % day) / hour)] ?? 0) + 1
    }
    // The burst adds 4 hours of rate a day to 24: 28/24 of the steady count.
    expect(Math.abs(dailyCount / steadyCount - 28 / 24)).toBeLessThan(0.05)
    // The cycle peaks in the first half of the day and ebbs in the second.
    const firstHalf = byHour.slice(0, 12).reduce((sum, n) => sum + n, 0)
    const secondHalf = byHour.slice(12).reduce((sum, n) => sum + n, 0)
    expect(firstHalf / secondHalf).toBeGreaterThan(1.5)
    expect(daily.history(models, 7, span)).toEqual(new ChangeProcess(4, "daily").history(models, 7, span))
  })

  it("adds and removes records at rates of their own, fixed by the seed", () => {
    const changes = new ChangeProcess(5)
    let added = 0
    let removed = 0
    for (let index = 0; index < 3000; index++) {
      if (changes.bornAt(models, index) <= 10 * day) added++
      if (changes.diedAt(models, index) <= 10 * day) removed++
    }
    // About 1 in 200 slots a day gains a record, and 1 in 400 loses one: 150 and 75 over ten days.
    expect(added).toBeGreaterThan(110)
    expect(added).toBeLessThan(190)
    expect(removed).toBeGreaterThan(50)
    expect(removed).toBeLessThan(100)
  })
})

describe("a simulator whose records change over time", () => {
  const start = Date.UTC(2026, 11, 1)
  /** A simulator on a clock the test moves, at 1,000 times the service's speed: a day in 86.4 s of the clock. */
  const started = async (changes: SimulatorStandalone.Running["options"]["changes"] = "steady") => {
    const clock = { at: start }
    const running = await SimulatorStandalone.start({ sizes: { models: 300, skills: 100, mcps: 50 }, enforceLimits: false, timeScale: 0.001, changes }, {
      now: () => clock.at
    })
    return { running, clock }
  }
  const get = async (running: SimulatorStandalone.Running, path: string, etag?: string) => {
    const answer = await fetch(`${running.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${running.keys.full}`, ...(etag === undefined ? {} : { "if-none-match": etag }) }
    })
    return { status: answer.status, etag: answer.headers.get("etag") ?? "", body: await answer.text() }
  }
  const detailPath = (id: string) => `/models/${id}/`
  const dayMillis = 86_400

  it("changes a model's ETag exactly when its history says it changed, and answers 304 otherwise", async () => {
    const { clock, running } = await started()
    try {
      const ids = running.listed("models").map((model) => model.id)
      const before = await Promise.all(ids.map((id) => get(running, detailPath(id))))
      clock.at += 3 * dayMillis
      let changed = 0
      for (const [i, id] of ids.entries()) {
        const truth = running.truth("models", id)
        const was = before[i]
        if (truth === undefined || was === undefined) throw new Error(`no truth for ${id}`)
        const again = await get(running, detailPath(id), was.etag)
        const changedSince = truth.changes.some((at) => at > start)
        if (truth.died !== null) {
          expect(again.status).toBe(404)
          continue
        }
        expect(again.status).toBe(changedSince ? 200 : 304)
        if (changedSince) {
          changed++
          expect(again.etag).not.toBe(was.etag)
          expect(again.body).not.toBe(was.body)
        }
      }
      // 300 models at about 0.4 changes a day each: some changed in three days, most did not.
      expect(changed).toBeGreaterThan(30)
      expect(changed).toBeLessThan(200)
    } finally {
      await running.stop()
    }
  })

  it("lists records added and leaves out those removed, as their truth says", async () => {
    const { clock, running } = await started()
    try {
      const first = new Set(running.listed("models").map((model) => model.id))
      clock.at += 40 * dayMillis
      const later = running.listed("models").map((model) => model.id)
      const added = later.filter((id) => !first.has(id))
      const removed = [...first].filter((id) => !later.includes(id))
      expect(added.length).toBeGreaterThan(0)
      expect(removed.length).toBeGreaterThan(0)
      for (const id of added) expect(running.truth("models", id)?.born).toBeLessThanOrEqual(clock.at)
      for (const id of removed) expect(running.truth("models", id)?.died).toBeLessThanOrEqual(clock.at)
      const listed = await get(running, "/models/?limit=100")
      expect(JSON.parse(listed.body).data.map((model: { readonly id: string }) => model.id)).toEqual(later.slice(0, 100))
    } finally {
      await running.stop()
    }
  })

  it("changes a model's offers when their own history says so, apart from the model's", async () => {
    const { clock, running } = await started()
    try {
      const ids = running.listed("models").slice(0, 60).map((model) => model.id)
      const offersOf = (id: string) => `/models/${id}/offers/`
      const before = await Promise.all(ids.map((id) => get(running, offersOf(id))))
      clock.at += 5 * dayMillis
      let moved = 0
      for (const [i, id] of ids.entries()) {
        const truth = running.truth("modelOffers", id)
        if (truth === undefined || running.truth("models", id)?.died !== null) continue
        const changedSince = truth.changes.some((at) => at > start)
        expect((await get(running, offersOf(id), before[i]?.etag)).status).toBe(changedSince ? 200 : 304)
        if (changedSince) moved++
      }
      expect(moved).toBeGreaterThan(0)
    } finally {
      await running.stop()
    }
  })

  it("stays as it was without a change pattern, and reports no truth", async () => {
    const { clock, running } = await started("none")
    try {
      const before = await get(running, "/models/?limit=100")
      clock.at += 40 * dayMillis
      expect((await get(running, "/models/?limit=100", before.etag)).status).toBe(304)
      expect(running.truth("models", running.listed("models")[0]?.id ?? "")).toBeUndefined()
    } finally {
      await running.stop()
    }
  })
})
