/**
 * Word lists the generated catalog draws its names from.
 *
 * @since 0.1.0
 */

type Words = readonly [string, ...Array<string>]

/** @since 0.1.0 */
export const names: Words = [
  "aurora", "basalt", "cinder", "delta", "ember", "falcon", "granite", "harbor", "iris", "juniper",
  "kestrel", "lumen", "meridian", "nimbus", "onyx", "pioneer", "quartz", "raven", "sierra", "tundra",
  "umber", "vector", "willow", "xenon", "yarrow", "zephyr", "atlas", "beacon", "cobalt", "drift"
]

/** @since 0.1.0 */
export const orgSuffixes: Words = ["Labs", "AI", "Research", "Systems", "Institute", "Collective", "Foundation"]

/** @since 0.1.0 */
export const sizes: Words = ["1b", "3b", "8b", "14b", "32b", "70b", "120b", "405b", "mini", "pro", "flash"]

/** @since 0.1.0 */
export const providerNames: Words = [
  "cloudforge", "fastlane", "gridworks", "hyperscale", "inferno", "kilnworks", "lattice", "nebula",
  "openrail", "parallax", "quanta", "relay", "skyline", "tensorport", "vaultline"
]

/** @since 0.1.0 */
export const topics: Words = [
  "agents", "analytics", "automation", "backend", "cloud", "coding", "data", "databases", "design",
  "devops", "documents", "education", "finance", "frontend", "healthcare", "legal", "marketing",
  "mobile", "productivity", "research", "security", "testing", "translation", "writing"
]

/** @since 0.1.0 */
export const benchmarkDatasets: Words = ["aime-2025", "gpqa-diamond", "livecodebench", "mmlu-pro", "swe-bench-verified"]

/** @since 0.1.0 */
export const applications: Words = ["chatpad", "codepilot", "docsmith", "mailmind", "notewise", "slidecraft"]

/** @since 0.1.0 */
export const prose: Words = [
  "the", "catalog", "records", "model", "context", "tokens", "skill", "agent", "workflow", "reliable",
  "structured", "output", "evaluation", "retrieval", "summaries", "careful", "review", "source", "open",
  "license", "provider", "latency", "throughput", "pricing", "observed", "daily", "routes", "public",
  "documents", "tools", "servers", "registry", "inert", "content", "metadata", "stable", "identity"
]
