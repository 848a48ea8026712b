import { answerDocument, continuedDocument, neutraliseMarkdown } from '@pgs/contract/document';
import type { Budget } from '../models/budget.ts';
import { type CallResult, GenerationFailedError, type ModelCaller } from '../models/calls.ts';
import type { ProjectDefinition } from '../models/context.ts';
import type { ChainModel, ModelMessage } from '../models/sdk/providers.ts';
import { type CallUsage, cachedUserMessage, sumUsage } from '../models/usage.ts';
import { ancestors, contextOrder, type DocumentKind } from './catalogue.ts';
import {
  checkDocument,
  type Finding,
  findingsWeight,
  needsRepair,
  TRUNCATED,
  traceFindings,
  wishMustFindings,
} from './gate.ts';
import { houseFindings } from './house-gate.ts';
import type { RunDocument, RunProject } from './ports.ts';
import type { PromptHouse } from './prompts/conventions.ts';
import { digestOf, READS_AS_DIGEST } from './prompts/digest.ts';
import {
  CONTINUE_MESSAGE,
  documentPrompt,
  type EarlierDocument,
  ID_DEFINERS,
  type RenderedPrompt,
  repairMessage,
} from './prompts/render.ts';
import type { PromptRepository } from './prompts/repository.ts';

/** A model answer with everything provenance records about how it came to be. */
export interface Produced {
  usage: CallUsage;
  attempts: number;
  repairs: number;
  engine: string;
}

/** A document written and checked, with what provenance records about it. */
export interface WrittenDocument {
  content: string;
  produced: Produced;
  version: string;
  initialFindings: Finding[];
  findings: Finding[];
  trimmed: string[];
}

/** What {@link writeDocument} is given: the run's collaborators, the document and its project. */
interface WriteDocumentInput {
  caller: ModelCaller;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  contextTokenBudget: number;
  chain: readonly ChainModel[];
  served: (result: Pick<CallResult, 'index'>, from: readonly ChainModel[]) => void;
  plan: readonly DocumentKind[];
  doc: DocumentKind;
  project: RunProject;
  definition: ProjectDefinition;
  stored: ReadonlyMap<string, Pick<RunDocument, 'type' | 'filename' | 'content'>>;
  signal: AbortSignal;
  /** The project's limit on model calls, if it has one. */
  budget?: Budget | undefined;
  /** A grounded project's codebase digest, fitted to its budget once for the run. */
  repository?: PromptRepository | undefined;
  /** The house conventions and language the project follows (prompts/conventions.ts). */
  house?: PromptHouse | undefined;
  /**
   * A revision's rewrite (runs/revision-workflow.ts): its prompt, made from the earlier
   * documents given, and the revision rules the gate adds.
   */
  revise?: {
    prompt: (earlier: readonly EarlierDocument[]) => RenderedPrompt;
    gate: (content: string) => Finding[];
    /** IDs of earlier revisions that are gone: gaps in the numbering on purpose. */
    retired: readonly string[];
  };
}

/** An answer taken as the document so far, with the gate's findings on it. */
interface Checked {
  content: string;
  findings: Finding[];
}

/**
 * Writes one document: the prompt from the full text of the documents it builds on, the
 * call, the quality gate and one repair. Nothing is stored here.
 *
 * @example
 * const written = await writeDocument({ caller, log, contextTokenBudget, chain, served, plan, doc, project, definition, stored, signal });
 */
export async function writeDocument(input: WriteDocumentInput): Promise<WrittenDocument> {
  const earlier = earlierDocuments(input.plan, input.doc, input.stored);
  const rendered = renderPrompt(input, earlier);
  const call = callOf(input, rendered);
  const gate = (content: string, engine: string) => gateDocument(input, earlier, content, engine);

  const first = await input.caller.call(input.chain, call, input.signal);
  input.served(first, input.chain);
  const produced: Produced = {
    usage: first.usage,
    attempts: first.attempts,
    repairs: 0,
    engine: first.model.engine,
  };
  const answered = await completeAnswer(input, call, produced, first, 0);
  const initial: Checked = {
    content: answered.content,
    findings: [
      ...(answered.cut ? [TRUNCATED] : []),
      ...(await gate(answered.content, first.model.engine)),
    ],
  };
  const kept = needsRepair(initial.findings)
    ? await repairOnce(input, call, produced, first, initial, gate)
    : initial;

  keepOnlyAnAnswer(input.doc, kept.content, produced);
  if (kept.findings.length > 0) {
    input.log.info(
      {
        projectId: input.project.id,
        kind: input.doc.kind,
        findings: kept.findings.map((f) => f.rule),
      },
      'document kept with quality findings',
    );
  }
  return {
    content: `${kept.content}\n`,
    produced,
    version: rendered.version,
    initialFindings: initial.findings,
    findings: kept.findings,
    trimmed: rendered.trimmed,
  };
}

/**
 * The ancestors of a document that are stored, in the plan's one context order, so the
 * prompts of a project share their beginnings.
 */
function earlierDocuments(
  plan: readonly DocumentKind[],
  doc: DocumentKind,
  stored: WriteDocumentInput['stored'],
): EarlierDocument[] {
  const direct = new Set(doc.dependsOn);
  const inputs = ancestors(plan, doc);
  return contextOrder(plan)
    .filter((d) => inputs.has(d.kind))
    .map((d) => stored.get(d.kind))
    .filter((row) => row !== undefined)
    .map((row) => ({
      kind: row.type,
      title: plan.find((p) => p.kind === row.type)?.title ?? row.type,
      filename: row.filename,
      content: row.content,
      // What it builds on directly matters most, then the documents that define the IDs.
      priority: direct.has(row.type) ? 0 : ID_DEFINERS[row.type] ? 1 : 2,
    }));
}

/** A revision's own prompt, or the document's prompt with the ancestors it only cites digested. */
function renderPrompt(input: WriteDocumentInput, earlier: EarlierDocument[]): RenderedPrompt {
  const { doc } = input;
  // Ancestors it only cites are given as digests; the gate still reads their full text.
  const digested = new Set(READS_AS_DIGEST[doc.kind] ?? []);
  return (
    input.revise?.prompt(earlier) ??
    documentPrompt({
      idea: input.project.idea,
      definition: input.definition,
      document: doc,
      earlier: earlier.map((e) =>
        digested.has(e.kind) ? { ...e, content: digestOf(e), digest: true } : e,
      ),
      budget: input.contextTokenBudget,
      detail: input.project.detail,
      repository: input.repository,
      requirementStyle: input.project.requirementStyle,
      house: input.house,
    })
  );
}

/** The first call of the document: its prompt as one user message, and what every call shares. */
function callOf(input: WriteDocumentInput, rendered: RenderedPrompt) {
  const messages: ModelMessage[] = [
    rendered.parts === undefined
      ? { role: 'user', content: rendered.prompt }
      : cachedUserMessage(rendered.parts),
  ];
  return {
    kind: input.doc.kind,
    system: rendered.system,
    maxOutputTokens: rendered.maxOutputTokens,
    cacheKey: input.project.id,
    context: rendered.context,
    ...(input.budget === undefined ? {} : { budget: input.budget }),
    messages,
  };
}

type DocumentCall = ReturnType<typeof callOf>;

/** The form, then the substance: the trace of this document with those it builds on. */
async function gateDocument(
  input: WriteDocumentInput,
  earlier: readonly EarlierDocument[],
  content: string,
  engine: string,
): Promise<Finding[]> {
  const { doc, definition } = input;
  const form = checkDocument({
    kind: doc.kind,
    content,
    projectName: definition.name,
    sections: doc.sections,
    filename: doc.filename,
  });
  if (form.some((finding) => finding.rule === 'empty')) return form;
  const traced = await traceFindings(
    [...earlier, { filename: doc.filename, content }],
    doc.kind,
    doc.filename,
    definition.questionnaire.coreFeatures,
    input.revise?.retired,
    input.project.requirementStyle,
  );
  const housed = houseFindings({
    kind: doc.kind,
    content,
    idea: input.project.idea,
    house: input.house,
    engine,
  });
  // The idea's wishes kept off Must, on creation: a change request may promote one later.
  const wishes =
    doc.kind === 'product-requirements' && input.revise === undefined
      ? wishMustFindings(doc.filename, content, input.project.idea)
      : [];
  return [...form, ...traced, ...housed, ...wishes, ...(input.revise?.gate(content) ?? [])];
}

/**
 * An answer cut off by the output limit is continued once, from where it stopped; one
 * still cut after that is reported `cut` (the gate's `truncated`), never taken as whole.
 * What is checked and stored is the answer neutralised (user-text.ts): a model that echoes
 * the idea's HTML, a script link or a remote image writes none of it into the project.
 * `offset` is where in the run's chain the answer's own chain began.
 */
async function completeAnswer(
  input: WriteDocumentInput,
  call: DocumentCall,
  produced: Produced,
  answer: CallResult,
  offset: number,
): Promise<{ content: string; cut: boolean }> {
  const text = neutraliseMarkdown(answerDocument(answer.text));
  if (answer.finishReason !== 'length' || text === '') return { content: text, cut: false };
  const rest = await input.caller.call(
    input.chain.slice(offset + answer.index),
    {
      ...call,
      messages: [
        ...call.messages,
        { role: 'assistant', content: answer.text },
        { role: 'user', content: CONTINUE_MESSAGE },
      ],
    },
    input.signal,
  );
  produced.usage = sumUsage(produced.usage, rest.usage);
  produced.attempts += rest.attempts;
  return {
    content: neutraliseMarkdown(continuedDocument(answer.text, rest.text)),
    cut: rest.finishReason === 'length',
  };
}

/**
 * One repair: the findings are sent back, on the chain from the model that answered first.
 * The repair is kept unless it made things worse (an empty answer, or worse findings); one
 * that cannot be made leaves the first answer, its findings recorded.
 */
async function repairOnce(
  input: WriteDocumentInput,
  call: DocumentCall,
  produced: Produced,
  first: CallResult,
  initial: Checked,
  gate: (content: string, engine: string) => Promise<Finding[]>,
): Promise<Checked> {
  produced.repairs = 1;
  try {
    const messages: ModelMessage[] = [
      ...call.messages,
      { role: 'assistant', content: initial.content || '(no answer)' },
      { role: 'user', content: repairMessage(initial.findings) },
    ];
    const repairCall = { ...call, messages };
    const repair = await input.caller.call(
      input.chain.slice(first.index),
      repairCall,
      input.signal,
    );
    input.served({ index: first.index + repair.index }, input.chain);
    produced.usage = sumUsage(produced.usage, repair.usage);
    produced.attempts += repair.attempts;
    const fixed = await completeAnswer(input, repairCall, produced, repair, first.index);
    const after = [
      ...(fixed.cut ? [TRUNCATED] : []),
      ...(await gate(fixed.content, repair.model.engine)),
    ];
    if (fixed.content === '' || findingsWeight(after) > findingsWeight(initial.findings)) {
      return initial;
    }
    produced.engine = repair.model.engine;
    return { content: fixed.content, findings: after };
  } catch (error) {
    if (input.signal.aborted) throw error;
    // A refusal of the credentials still ends the project.
    if (!(error instanceof GenerationFailedError) || error.reason === 'unauthorized') throw error;
    produced.attempts += error.attempts;
    input.log.warn(
      { projectId: input.project.id, kind: input.doc.kind, reason: error.reason },
      'repair failed; keeping the first answer',
    );
    return initial;
  }
}

/** An empty document is a failed generation, never stored. */
function keepOnlyAnAnswer(doc: DocumentKind, content: string, produced: Produced): void {
  if (content === '') {
    throw new GenerationFailedError(`${doc.kind}: the model answered with an empty document`, {
      reason: 'invalid-output',
      engine: produced.engine,
      attempts: produced.attempts,
      cause: undefined,
    });
  }
}
