import { applyAnswers, applyConventions, type Conventions, type ProjectType } from '@pgs/contract';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import type { Budget } from '../models/budget.ts';
import { type CallResult, GenerationFailedError, type ModelCaller } from '../models/calls.ts';
import type { ProjectDefinition } from '../models/context.ts';
import { definitionChecks, missingTerms } from '../models/sdk/offline-model.ts';
import type { ChainModel, ModelMessage } from '../models/sdk/providers.ts';
import { type CallUsage, emptyUsage, sumUsage } from '../models/usage.ts';
import type { RunProject } from './ports.ts';
import {
  DEFINITION_CORE,
  DEFINITION_RULES,
  DEFINITION_SCHEMA,
  definitionPrompt,
} from './prompts/definition.ts';
import { correctionMessage } from './prompts/render.ts';
import type { PromptRepository } from './prompts/repository.ts';

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validateCore = ajv.compile(DEFINITION_CORE);
const validateSoft = ajv.compile({ allOf: [DEFINITION_SCHEMA, DEFINITION_RULES] });

/** Answer tokens for the definition: about a thousand are needed; room for verbose models. */
const DEFINITION_MAX_OUTPUT_TOKENS = 4_000;

const describe = (error: ErrorObject) =>
  `${error.instancePath || '(the answer)'} ${error.message ?? 'is invalid'}${
    error.keyword === 'pattern' && error.instancePath.endsWith('targetAudience')
      ? ' (write a full sentence: who they are and the situation they are in)'
      : ''
  }`;

/** A fault of a definition answer, as provenance records it. */
export interface DefinitionFinding {
  /**
   * `schema`: not a definition (the answer is not used); `soft-rule`: a count, length or
   * member the schema asks for, or a core feature that is filler ("Allow users"); `idea-term`:
   * words of the idea the definition leaves out, the product's own name among them.
   */
  rule: 'schema' | 'soft-rule' | 'idea-term' | 'conventions';
  severity: 'critical' | 'high' | 'medium';
  message: string;
}

/** Fields the client pinned: the server sets them, so an answer is never faulted for them. */
interface Pinned {
  type: ProjectType | undefined;
  name: string | undefined;
}

/**
 * What is wrong with a structured answer, in words a model can act on; empty when nothing
 * is. The pinned fields are set before checking, so a model that answers `"web"` for a
 * client's `"mobile"` is not faulted for it.
 *
 * @example
 * definitionFindings(output, 'A habit tracker for remote teams', { type: 'web', name: undefined });
 */
export function definitionFindings(
  output: unknown,
  idea: string,
  pinned: Pinned,
): DefinitionFinding[] {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) {
    return [{ rule: 'schema', severity: 'critical', message: 'the answer is not a JSON object' }];
  }
  const answer = withPinned(output as Record<string, unknown>, pinned);
  if (!validateCore(answer)) {
    return unique(validateCore.errors ?? []).map((message) => ({
      rule: 'schema' as const,
      severity: 'critical' as const,
      message,
    }));
  }
  const findings: DefinitionFinding[] = validateSoft(answer)
    ? []
    : unique(validateSoft.errors ?? []).map((message) => ({
        rule: 'soft-rule' as const,
        severity: 'medium' as const,
        message,
      }));
  const missing = missingTerms(idea, JSON.stringify(answer));
  if (missing.length > 0) {
    findings.push({
      rule: 'idea-term',
      severity: 'high',
      message: `the definition leaves out these words of the idea: ${missing.map((t) => `"${t}"`).join(', ')}. Keep each one, in a core feature and in ideaCoverage (a capability, its qualifier or its number), without changing its meaning`,
    });
  }
  // The offline reading's own tests (issue 29, item 4): the idea's name kept, no filler feature.
  const questionnaire = (answer.questionnaire ?? {}) as { coreFeatures?: unknown };
  for (const message of definitionChecks(
    idea,
    { name: answer.name, coreFeatures: questionnaire.coreFeatures },
    pinned.name,
  ))
    findings.push(
      message.startsWith('the idea names')
        ? { rule: 'idea-term', severity: 'high', message }
        : { rule: 'soft-rule', severity: 'medium', message },
    );
  return findings;
}

const unique = (errors: readonly ErrorObject[]) => [...new Set(errors.map(describe))];

/** The answer with the pinned fields set as the client asked. */
function withPinned(answer: Record<string, unknown>, pinned: Pinned): Record<string, unknown> {
  return {
    ...answer,
    ...(pinned.type === undefined ? {} : { type: pinned.type }),
    ...(pinned.name === undefined ? {} : { name: pinned.name }),
  };
}

export interface DefinedProject {
  definition: ProjectDefinition;
  usage: CallUsage;
  attempts: number;
  /** Corrective calls made (one per model whose first answer had a fault). */
  repairs: number;
  /** What was wrong with the first answer, if anything. */
  initialFindings: DefinitionFinding[];
  /** What is still wrong with the accepted answer (soft rules only). */
  findings: DefinitionFinding[];
  engine: string;
  version: string;
  /** The chain index of the model that answered last. */
  index: number;
}

/** What the calls of a definition spent, summed over every model and correction. */
interface Spent {
  usage: CallUsage;
  attempts: number;
  repairs: number;
}

/** An answer of the chain, its index in the whole chain, and what is wrong with it. */
interface Answered {
  answer: CallResult;
  findings: DefinitionFinding[];
}

type Check = (output: unknown) => DefinitionFinding[];

/** What of a project its definition is made from. */
type ProjectToDefine = Pick<RunProject, 'idea' | 'type' | 'typeRequested' | 'requestedName'> &
  Partial<Pick<RunProject, 'answers'>>;

/**
 * The definition call: structured output with the schema sent to the provider, the
 * answer checked (the schema, the soft rules, and that it kept every term of the idea),
 * and an answer with faults corrected once with them. Only an answer that is still no
 * definition after its correction hands over to the next model; soft faults that survive
 * the correction are accepted and recorded (a project is never failed for a count or a
 * length after its tokens are spent).
 *
 * @example
 * const { definition } = await defineProject(caller, chain, project, signal);
 */
export async function defineProject(
  caller: ModelCaller,
  chain: readonly ChainModel[],
  project: ProjectToDefine,
  signal: AbortSignal,
  /** The project's limit on model calls, if it has one. */
  budget?: Budget,
  /** A grounded project's codebase digest: the project is defined as a change to it. */
  repository?: PromptRepository,
  /** The house conventions the project follows (docs/conventions.md). */
  conventions?: Conventions,
): Promise<DefinedProject> {
  const pinned: Pinned = {
    type: project.typeRequested ? (project.type ?? undefined) : undefined,
    name: project.requestedName ?? undefined,
  };
  const { call, version } = definitionCall(project, pinned, budget, repository, conventions);
  const check: Check = (output) => definitionFindings(output, project.idea, pinned);
  const spent: Spent = { usage: emptyUsage(), attempts: 0, repairs: 0 };
  const { answered, initial } = await answerOnTheChain(caller, chain, call, check, spent, signal);
  const { answer } = answered;
  const housed = settledDefinition(answer.output, pinned, project, conventions);
  return {
    definition: housed.definition,
    usage: spent.usage,
    attempts: spent.attempts,
    repairs: spent.repairs,
    initialFindings: initial,
    findings: [...answered.findings, ...housed.findings],
    engine: answer.model.engine,
    version,
    index: answer.index,
  };
}

/** The definition prompt as one call, its schema sent with it, and the prompt's version. */
function definitionCall(
  project: ProjectToDefine,
  pinned: Pinned,
  budget: Budget | undefined,
  repository: PromptRepository | undefined,
  conventions: Conventions | undefined,
) {
  const { system, prompt, version, context } = definitionPrompt({
    idea: project.idea,
    type: pinned.type,
    requestedName: pinned.name,
    repository,
    answers: project.answers ?? undefined,
    conventions,
  });
  const messages: ModelMessage[] = [{ role: 'user', content: prompt }];
  const call = {
    kind: 'definition',
    system,
    maxOutputTokens: DEFINITION_MAX_OUTPUT_TOKENS,
    schema: DEFINITION_SCHEMA,
    context,
    ...(budget === undefined ? {} : { budget }),
    messages,
  };
  return { call, version };
}

type DefinitionCall = ReturnType<typeof definitionCall>['call'];

const usable = (findings: readonly DefinitionFinding[]) =>
  !findings.some((finding) => finding.rule === 'schema');

/**
 * Each model gets the request and one correction; a model whose answer is still no
 * definition hands over to the next one of the chain. When the last one's answer is still
 * none, the definition fails. `initial` is what was wrong with the very first answer.
 */
async function answerOnTheChain(
  caller: ModelCaller,
  chain: readonly ChainModel[],
  call: DefinitionCall,
  check: Check,
  spent: Spent,
  signal: AbortSignal,
): Promise<{ answered: Answered; initial: DefinitionFinding[] }> {
  let from = 0;
  let initial: DefinitionFinding[] | undefined;
  for (;;) {
    const { answered, first } = await answerCorrectedOnce(
      caller,
      chain,
      from,
      call,
      check,
      spent,
      signal,
    );
    initial ??= first;
    const { answer, findings } = answered;
    if (usable(findings)) return { answered, initial };
    if (answer.index + 1 >= chain.length) {
      throw new GenerationFailedError(
        `definition: ${answer.model.engine} answered with an invalid definition after a correction: ${findings.map((f) => f.message).join('; ')}`,
        {
          reason: 'invalid-output',
          engine: answer.model.engine,
          attempts: spent.attempts,
          cause: undefined,
        },
      );
    }
    from = answer.index + 1;
  }
}

/**
 * The chain from `from` answers, and an answer with faults is corrected once with them on
 * the chain from the model that answered. The correction is kept unless it is no definition
 * while the first answer was one. `first` is what was wrong with the answer before it.
 */
async function answerCorrectedOnce(
  caller: ModelCaller,
  chain: readonly ChainModel[],
  from: number,
  call: DefinitionCall,
  check: Check,
  spent: Spent,
  signal: AbortSignal,
): Promise<{ answered: Answered; first: DefinitionFinding[] }> {
  const models = chain.slice(from);
  const first = await caller.call(models, call, signal);
  spent.usage = sumUsage(spent.usage, first.usage);
  spent.attempts += first.attempts;
  const findings = check(first.output);
  const answered: Answered = { answer: { ...first, index: from + first.index }, findings };
  if (findings.length === 0) return { answered, first: findings };
  spent.repairs++;
  const retry = await caller.call(
    models.slice(first.index),
    {
      ...call,
      messages: [
        ...call.messages,
        { role: 'assistant', content: first.text || '(no answer)' },
        { role: 'user', content: correctionMessage(findings.map((f) => f.message)) },
      ],
    },
    signal,
  );
  spent.usage = sumUsage(spent.usage, retry.usage);
  spent.attempts += retry.attempts;
  const corrected = check(retry.output);
  if (!usable(corrected) && usable(findings)) return { answered, first: findings };
  return {
    answered: {
      answer: { ...retry, index: from + first.index + retry.index },
      findings: corrected,
    },
    first: findings,
  };
}

/**
 * The accepted answer as the project's definition: the pinned fields set, the client's
 * answers and the house conventions applied, with the clashes the conventions found.
 */
function settledDefinition(
  output: unknown,
  pinned: Pinned,
  project: ProjectToDefine,
  conventions: Conventions | undefined,
) {
  const defined = withPinned(
    output as Record<string, unknown>,
    pinned,
  ) as unknown as ProjectDefinition;
  // Answers are facts whatever the model made of them: an answered question never stays an
  // assumption or an open question (docs/clarify.md).
  const answered: ProjectDefinition = applyAnswers(
    {
      name: defined.name.trim(),
      description: defined.description.trim(),
      type: defined.type,
      questionnaire: defined.questionnaire,
    },
    project.answers ?? [],
  );
  // So are the house conventions, unless the idea itself chose otherwise: then the idea's
  // choice stays and the clash is recorded, never silently overruled (docs/conventions.md).
  return applyConventions(answered, conventions, project.idea);
}
