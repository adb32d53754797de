// Novarch: governance for agent tool calls (gate, judge, holds, audit).
// The package is a skeleton until its issue is built; it deliberately exports nothing yet.
export {};
