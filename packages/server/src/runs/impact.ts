/**
 * A revision's first step: the change request read into requirement deltas against the
 * current requirements, as structured output (the offline engine answers it like any
 * model). The answer is normalised, never trusted: a delta on an ID that does not exist is
 * dropped, added IDs are renumbered from the next free number, one delta per ID. Then it is
 * checked as the offline reading checks its own (issue 29, item 4): a REMOVED delta whose
 * requirement carries nothing the request removes, and a MODIFIED or RENAMED one on a
 * requirement the request does not name, are findings, and the answer is corrected once with
 * them.
 */
import type { ModelCaller } from '../models/calls.ts';
import type { ImpactContext } from '../models/context.ts';
import type { RequirementDelta } from '../models/deltas.ts';
import { changeFindings, removalFindings } from '../models/sdk/offline-model.ts';
import type { ChainModel, ModelMessage } from '../models/sdk/providers.ts';
import { type CallUsage, cachedUserMessage, sumUsage } from '../models/usage.ts';
import type { Finding } from './gate.ts';
import type { PromptHouse } from './prompts/conventions.ts';
import { correctionMessage } from './prompts/render.ts';
import { IMPACT_SCHEMA, impactPrompt } from './prompts/revision.ts';

const IMPACT_MAX_OUTPUT_TOKENS = 4_000;

interface RawDelta {
  op?: unknown;
  id?: unknown;
  title?: unknown;
  text?: unknown;
  reason?: unknown;
  from?: unknown;
  to?: unknown;
}

const str = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The answer's deltas made valid against the requirements they change. */
export function normaliseDeltas(output: unknown, context: ImpactContext): RequirementDelta[] {
  const raw = (output as { deltas?: unknown } | null)?.deltas;
  if (!Array.isArray(raw)) return [];
  const titles = new Map(context.requirements.map((r) => [r.id, r.title]));
  const seen = new Set<string>();
  let next = context.nextNumber;
  const deltas: RequirementDelta[] = [];
  for (const item of raw as RawDelta[]) {
    const op = str(item.op);
    const id = str(item.id).toUpperCase();
    const title = str(item.title);
    if (op === 'added') {
      const text = str(item.text);
      if (title === '' && text === '') continue;
      deltas.push({ op, id: `FR-${next++}`, title: title || text, text: text || title });
      continue;
    }
    if (!titles.has(id) || seen.has(id)) continue;
    seen.add(id);
    if (op === 'modified') {
      const text = str(item.text);
      if (text === '' && title === '') continue;
      deltas.push({ op, id, title: title || titles.get(id)!, text: text || title });
    } else if (op === 'removed') {
      deltas.push({
        op,
        id,
        title: titles.get(id)!,
        reason: str(item.reason) || 'Removed by the change request.',
      });
    } else if (op === 'renamed') {
      const to = str(item.to) || title;
      if (to !== '') deltas.push({ op, id, from: titles.get(id)!, to });
    }
  }
  return deltas;
}

/** The reading's messages as provenance records them: a delta on a requirement not named. */
const asFindings = (messages: readonly string[]): Finding[] =>
  messages.map((message) => ({ rule: 'unnamed-requirement', severity: 'high', message }));

export interface Impact {
  deltas: RequirementDelta[];
  usage: CallUsage;
  attempts: number;
  engine: string;
  version: string;
  index: number;
  /** Corrective calls made: 1 when the first answer removed or changed a requirement the request did not name. */
  repairs: number;
  /** What was wrong with the first answer, if anything (`unnamed-requirement`, high). */
  initialFindings: Finding[];
  /** What is still wrong with the deltas kept (the correction's, or the first answer's if it did no better). */
  findings: Finding[];
}

/**
 * Reads the change request into deltas with the first model of the chain that answers; an
 * answer that removes or changes a requirement the request does not name is corrected once,
 * and the correction kept unless it has more findings. The project's house conventions and
 * language, when it has them, open the prompt as they open every other of its prompts.
 */
export async function analyseImpact(
  caller: ModelCaller,
  chain: readonly ChainModel[],
  context: ImpactContext,
  signal: AbortSignal,
  house?: PromptHouse,
): Promise<Impact> {
  const { system, prompt, parts, version } = impactPrompt(context, house);
  const messages: ModelMessage[] = [
    parts === undefined ? { role: 'user', content: prompt } : cachedUserMessage(parts),
  ];
  const spec = {
    kind: 'impact',
    system,
    maxOutputTokens: IMPACT_MAX_OUTPUT_TOKENS,
    schema: IMPACT_SCHEMA,
    context,
  };
  const check = (deltas: RequirementDelta[]) => [
    ...removalFindings(context.changeRequest, context.requirements, deltas),
    ...changeFindings(context.changeRequest, context.requirements, deltas),
  ];
  let answer = await caller.call(chain, { ...spec, messages }, signal);
  let deltas = normaliseDeltas(answer.output, context);
  let findings = check(deltas);
  const initialFindings = findings;
  let usage = answer.usage;
  let attempts = answer.attempts;
  let index = answer.index;
  let repairs = 0;
  if (findings.length > 0) {
    repairs = 1;
    const retry = await caller.call(
      chain.slice(answer.index),
      {
        ...spec,
        messages: [
          ...messages,
          { role: 'assistant', content: answer.text || '(no answer)' },
          { role: 'user', content: correctionMessage(findings) },
        ],
      },
      signal,
    );
    usage = sumUsage(usage, retry.usage);
    attempts += retry.attempts;
    const corrected = normaliseDeltas(retry.output, context);
    const left = check(corrected);
    if (corrected.length > 0 && left.length <= findings.length) {
      answer = retry;
      index += retry.index;
      deltas = corrected;
      findings = left;
    }
  }
  return {
    deltas,
    usage,
    attempts,
    engine: answer.model.engine,
    version,
    index,
    repairs,
    initialFindings: asFindings(initialFindings),
    findings: asFindings(findings),
  };
}
