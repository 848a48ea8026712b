import { describe, expect, it } from 'vitest';
import { documentPlan } from './catalogue.ts';
import { DEFINITION_KIND, estimateRemainingMs, spreadDuration } from './estimate.ts';

const plan = documentPlan('web');
const unit = () => 1000;

describe('estimateRemainingMs', () => {
  it('is the critical path, not the sum, of the remaining documents', () => {
    const all = estimateRemainingMs({
      plan,
      done: new Set(),
      defined: false,
      durationOf: unit,
      now: 0,
    });
    // definition → brief → requirements → architecture → data model → API design → plan →
    // readme (the stories alongside)
    expect(all).toBe(8000);
    // The sum would count the definition and every document, the stories included.
    expect(all).toBeLessThan((plan.length + 1) * 1000);
  });

  it('falls as documents are stored and reaches zero when all are', () => {
    const kinds = plan.map((d) => d.kind);
    let previous = Number.POSITIVE_INFINITY;
    for (let i = 0; i <= kinds.length; i++) {
      const done = new Set(kinds.slice(0, i));
      const value = estimateRemainingMs({ plan, done, defined: true, durationOf: unit, now: 0 });
      expect(value).toBeLessThanOrEqual(previous);
      previous = value;
    }
    expect(previous).toBe(0);
  });

  it('counts only the remainder of a running document and never goes negative', () => {
    const done = new Set(plan.map((d) => d.kind).filter((k) => k !== 'readme'));
    const running = new Map([['readme', 0]]);
    const at = (now: number) =>
      estimateRemainingMs({ plan, done, running, defined: true, durationOf: unit, now });
    expect(at(250)).toBe(750);
    expect(at(5000)).toBe(0);
  });

  it('uses each kind its own measured duration', () => {
    const durations = new Map([[DEFINITION_KIND, 100]]);
    const value = estimateRemainingMs({
      plan,
      done: new Set(),
      defined: false,
      durationOf: (kind) => durations.get(kind) ?? (kind === 'data-model' ? 9000 : 10),
      now: 0,
    });
    // definition, brief, requirements, architecture, data model (9 s), API design, plan, readme
    expect(value).toBe(100 + 10 + 10 + 10 + 9000 + 10 + 10 + 10);
  });
});

describe('spreadDuration', () => {
  it('makes the longest chain last the simulated duration', () => {
    for (const type of ['web', 'mobile', 'mcp'] as const) {
      const p = documentPlan(type);
      const delays = spreadDuration(p, 60_000);
      const total = estimateRemainingMs({
        plan: p,
        done: new Set(),
        defined: false,
        durationOf: (kind) => delays.get(kind) ?? 0,
        now: 0,
      });
      expect(Math.abs(total - 60_000)).toBeLessThanOrEqual(p.length);
    }
  });

  it('is all zero for a zero duration', () => {
    expect([...spreadDuration(plan, 0).values()].every((d) => d === 0)).toBe(true);
  });
});
