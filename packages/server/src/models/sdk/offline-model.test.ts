import type { ProjectType } from '@pgs/contract';
import { generateText, jsonSchema, Output, streamText } from 'ai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { documentPlan } from '../../runs/catalogue.ts';
import { DEFINITION_RULES, DEFINITION_SCHEMA } from '../../runs/prompts/definition.ts';
import { DOCUMENT_SYSTEM as SYSTEM_PROMPT } from '../../runs/prompts/system.ts';
import { contextBlock, type GenerationContext, type ProjectDefinition } from '../context.ts';
import { createOfflineModel, offlineCallOptions } from './offline-model.ts';

/** Words of a markdown text, as the engine counts them (table rules and symbols do not count). */
const countWords = (markdown: string) =>
  markdown.split(/\s+/).filter((word) => /[A-Za-z0-9]/.test(word)).length;

const model = createOfflineModel();
const validate = new Ajv2020({ strict: false }).compile({
  allOf: [DEFINITION_SCHEMA, DEFINITION_RULES],
});
const PROJECT_DEFINITION_SCHEMA = DEFINITION_SCHEMA;
/** A prompt as PGS's own prompts carry the context: prose, then the JSON block. */
const renderPrompt = (context: GenerationContext) =>
  `Write what the context asks for.\n\n${contextBlock(context)}`;
/** The typed call, as models/calls.ts hands it to an offline link, with a simulation's options. */
const simulated = (
  context: GenerationContext,
  simulation: Record<string, number | boolean> = {},
) => ({
  'pgs-offline': { ...offlineCallOptions(context)['pgs-offline'], ...simulation },
});

const IDEAS: Record<ProjectType, string[]> = {
  web: [
    'A habit tracker for remote teams to build routines together and celebrate streaks',
    'A marketplace where local farmers sell vegetables to restaurants, with weekly delivery routes',
  ],
  mobile: [
    'An iPhone app for nurses to swap shifts and track overtime',
    'Mobile app to log climbs and share beta with friends',
  ],
  mcp: [
    'An MCP server that lets Claude search our Confluence wiki and create Jira tickets',
    'A tool server for AI assistants to query our Postgres orders database and summarize refunds',
  ],
};

const PLACEHOLDER = /TODO|TBD|lorem|\[insert|<name>|XXX/i;

async function define(idea: string, type: ProjectType, requestedName?: string) {
  const context: GenerationContext = {
    task: 'definition',
    idea,
    type,
    ...(requestedName ? { requestedName } : {}),
  };
  const result = await generateText({
    model,
    system: SYSTEM_PROMPT,
    prompt: renderPrompt(context),
    providerOptions: offlineCallOptions(context),
    output: Output.object({ schema: jsonSchema<ProjectDefinition>(PROJECT_DEFINITION_SCHEMA) }),
  });
  return result;
}

async function document(idea: string, definition: ProjectDefinition, kind: string) {
  const request = documentPlan(definition.type).find((doc) => doc.kind === kind)!;
  const context: GenerationContext = {
    task: 'document',
    idea,
    definition,
    document: {
      kind: request.kind,
      title: request.title,
      filename: request.filename,
      stage: request.stage,
      sections: request.sections,
    },
    related: [
      {
        kind: 'project-brief',
        title: 'Project Brief',
      },
    ],
  };
  return generateText({
    model,
    system: SYSTEM_PROMPT,
    prompt: renderPrompt(context),
    providerOptions: offlineCallOptions(context),
  });
}

/** The markdown without fenced code blocks, where braces are legitimate (JSON, SQL, types). */
function prose(markdown: string): string {
  return markdown.replace(/```[\s\S]*?```/g, '');
}

/** Content words of an idea, the way a reader would spot them in a document. */
function ideaWords(idea: string): string[] {
  return idea
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word) => word.length >= 5);
}

describe('offline model: project definition', () => {
  it('answers structured output that validates against the definition schema', async () => {
    for (const type of ['web', 'mobile', 'mcp'] as const) {
      for (const idea of IDEAS[type]) {
        const { output, text } = await define(idea, type);
        expect(validate(JSON.parse(text)), JSON.stringify(validate.errors)).toBe(true);
        expect(output.type).toBe(type);
        expect(output.description.toLowerCase()).toContain(ideaWords(idea)[0]);
        expect(output.questionnaire.coreFeatures.length).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it('uses the idea: audience, features from its verbs and a stack suited to the type', async () => {
    const web = (await define(IDEAS.web[0]!, 'web')).output;
    expect(web.questionnaire.targetAudience).toMatch(/^Remote teams that want to .+\.$/);
    expect(web.questionnaire.coreFeatures).toEqual(
      expect.arrayContaining(['Build routines together', 'Celebrate streaks']),
    );
    expect(web.questionnaire.techStack).toEqual(
      expect.arrayContaining(['TypeScript', 'React', 'Node.js', 'PostgreSQL']),
    );

    const mobile = (await define(IDEAS.mobile[0]!, 'mobile')).output;
    expect(mobile.questionnaire.targetAudience).toMatch(/^Nurses who want to .+\.$/);
    expect(mobile.questionnaire.coreFeatures).toEqual(
      expect.arrayContaining(['Swap shifts', 'Track overtime']),
    );
    expect(mobile.questionnaire.techStack[0]).toBe('Swift');
    expect(mobile.questionnaire.platforms).toEqual(['iOS']);

    const mcp = (await define(IDEAS.mcp[0]!, 'mcp')).output;
    expect(mcp.questionnaire.techStack).toEqual(
      expect.arrayContaining([
        'TypeScript',
        '@modelcontextprotocol/sdk',
        'Confluence REST API',
        'Jira REST API',
      ]),
    );
    expect(mcp.questionnaire.integrations?.map((i) => i.name)).toEqual(['Confluence', 'Jira']);
  });

  it('honours requestedName and the requested type', async () => {
    const { output } = await define(IDEAS.web[0]!, 'mobile', 'Streak Studio');
    expect(output.name).toBe('Streak Studio');
    expect(output.type).toBe('mobile');
    expect(output.description).toContain('Streak Studio');
  });

  it('is deterministic: the same input gives the same answer, different ideas differ', async () => {
    const first = await define(IDEAS.web[0]!, 'web');
    const again = await define(IDEAS.web[0]!, 'web');
    expect(again.text).toBe(first.text);

    const other = await define(IDEAS.web[1]!, 'web');
    expect(other.output.name).not.toBe(first.output.name);
    expect(other.output.questionnaire.coreFeatures).not.toEqual(
      first.output.questionnaire.coreFeatures,
    );
  });
});

describe('offline model: documents', () => {
  for (const type of ['web', 'mobile', 'mcp'] as const) {
    for (const idea of IDEAS[type]) {
      it(`writes every ${type} document for "${idea.slice(0, 40)}…"`, async () => {
        const definition = (await define(idea, type)).output;
        const texts = new Map<string, string>();
        for (const kind of documentPlan(type)) {
          const { text } = await document(idea, definition, kind.kind);
          texts.set(kind.kind, text);
          const where = `${type}/${kind.kind}`;
          expect(text.startsWith(`# ${kind.title}: ${definition.name}\n`), where).toBe(true);
          for (const section of kind.sections) expect(text, where).toContain(`\n## ${section}\n`);
          expect(countWords(text), where).toBeGreaterThanOrEqual(450);
          expect(text, where).toContain(definition.name);
          const mentioned = ideaWords(idea).filter((word) => text.toLowerCase().includes(word));
          expect(mentioned.length, where).toBeGreaterThanOrEqual(2);
          expect(text, where).not.toMatch(PLACEHOLDER);
          // No template left unfilled (paths such as /v1/passes/{id} are meant).
          expect(prose(text), where).not.toMatch(/\$\{|\{\{|\}\}|undefined|\[object/);
        }
        // Kinds are different documents, not one text with other headings.
        const bodies = [...texts.values()].map((text) => text.split('\n').slice(3).join('\n'));
        expect(new Set(bodies).size).toBe(bodies.length);
        expect(texts.get('project-brief')).not.toBe(texts.get('readme'));
      });
    }
  }

  it('keeps the settled features and stack consistent across documents', async () => {
    const idea = IDEAS.web[0]!;
    const definition = (await define(idea, 'web')).output;
    const readme = (await document(idea, definition, 'readme')).text;
    const requirements = (await document(idea, definition, 'product-requirements')).text;
    for (const feature of definition.questionnaire.coreFeatures) {
      expect(readme).toContain(feature);
      expect(requirements).toContain(feature);
    }
    for (const tech of definition.questionnaire.techStack) expect(readme).toContain(tech);
  });

  it('writes kind-specific content: endpoints, tables, client config and milestones', async () => {
    const webIdea = IDEAS.web[0]!;
    const web = (await define(webIdea, 'web')).output;
    expect((await document(webIdea, web, 'api-design')).text).toMatch(/\| (GET|POST) \| `?\/v1\//);
    expect((await document(webIdea, web, 'data-model')).text).toContain('CREATE TABLE');
    expect((await document(webIdea, web, 'implementation-plan')).text).toMatch(
      /\n- \*\*M1 Walking skeleton\*\*/,
    );
    expect((await document(webIdea, web, 'readme')).text).toContain('npm install');

    const mcpIdea = IDEAS.mcp[0]!;
    const mcp = (await define(mcpIdea, 'mcp')).output;
    const transport = (await document(mcpIdea, mcp, 'mcp-transport-and-clients')).text;
    const config = /```json\n([\s\S]*?)```/.exec(transport)?.[1];
    expect(JSON.parse(config ?? 'null')).toHaveProperty('mcpServers');
  });
});

describe('offline model: usage', () => {
  it('reports gpt-tokenizer (o200k_base) counts of the prompt and the answer', async () => {
    const context: GenerationContext = { task: 'definition', idea: IDEAS.web[0]!, type: 'web' };
    const prompt = renderPrompt(context);
    const result = await generateText({
      model,
      system: SYSTEM_PROMPT,
      prompt,
      providerOptions: offlineCallOptions(context),
    });
    expect(result.finishReason).toBe('stop');
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBe(countTokens(result.text));
    expect(result.usage.inputTokens).toBe(countTokens(`${SYSTEM_PROMPT}\n\n${prompt}`));
    expect(result.usage.totalTokens).toBe(result.usage.inputTokens! + result.usage.outputTokens!);
  });
});

describe('offline model: simulation, time-outs and aborts', () => {
  const context: GenerationContext = { task: 'definition', idea: IDEAS.mobile[0]!, type: 'mobile' };
  const prompt = renderPrompt(context);

  it('waits delayMs before answering', async () => {
    const started = performance.now();
    const result = await generateText({
      model,
      prompt,
      providerOptions: simulated(context, { delayMs: 200 }),
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
    expect(result.text.length).toBeGreaterThan(0);
  });

  it('hangs until the AI SDK timeout fires, then rejects with a TimeoutError DOMException', async () => {
    const started = performance.now();
    const error = await generateText({
      model,
      prompt,
      timeout: 100,
      maxRetries: 0,
      providerOptions: simulated(context, { hang: true }),
    }).catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(DOMException);
    expect(error).toBeInstanceOf(Error);
    expect((error as DOMException).name).toBe('TimeoutError');
    expect((error as DOMException).message).toBe('The operation was aborted due to timeout');
    expect(elapsed).toBeGreaterThanOrEqual(95);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('is not retried by the AI SDK: a time-out with default maxRetries still ends after one timeout', async () => {
    const started = performance.now();
    const error = await generateText({
      model,
      prompt,
      timeout: 100,
      providerOptions: simulated(context, { hang: true }),
    }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('TimeoutError');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('rejects promptly with an AbortError when an external signal aborts', async () => {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 50);
    const error = await generateText({
      model,
      prompt,
      abortSignal: controller.signal,
      providerOptions: simulated(context, { hang: true }),
    }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('also aborts a plain delay', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('shutting down')), 20);
    await expect(
      generateText({
        model,
        prompt,
        abortSignal: controller.signal,
        providerOptions: simulated(context, { delayMs: 60_000 }),
      }),
    ).rejects.toThrow('shutting down');
  });

  it('refuses a hang without a timeout or signal, and a call without its typed context', async () => {
    await expect(
      generateText({ model, prompt, providerOptions: simulated(context, { hang: true }) }),
    ).rejects.toThrow(/needs a timeout or an abortSignal/);
    await expect(generateText({ model, prompt: 'Write a poem' })).rejects.toThrow(
      /carries no typed context/,
    );
    // The prompt's <pgs-context> block is text for a model: the engine never reads it back.
    await expect(generateText({ model, prompt })).rejects.toThrow(/carries no typed context/);
  });

  it('answers the typed context, whatever the prompt says', async () => {
    const typed = await generateText({
      model,
      prompt: 'Write a poem',
      providerOptions: simulated(context),
    });
    const prompted = await generateText({ model, prompt, providerOptions: simulated(context) });
    expect(JSON.parse(typed.text)).toMatchObject({ type: 'mobile' });
    expect(typed.text).toBe(prompted.text);
  });
});

describe('offline model: streaming', () => {
  it('streams the same text as doGenerate, with usage', async () => {
    const idea = IDEAS.mcp[0]!;
    const definition = (await define(idea, 'mcp')).output;
    const generated = await document(idea, definition, 'mcp-tools');
    const request = documentPlan('mcp').find((doc) => doc.kind === 'mcp-tools')!;
    const context: GenerationContext = {
      task: 'document',
      idea,
      definition,
      document: { ...request, sections: request.sections },
      related: [
        {
          kind: 'project-brief',
          title: 'Project Brief',
        },
      ],
    };
    const started = performance.now();
    const streamed = streamText({
      model,
      system: SYSTEM_PROMPT,
      prompt: renderPrompt(context),
      providerOptions: simulated(context, { delayMs: 50 }),
    });
    let chunks = 0;
    for await (const _ of streamed.textStream) chunks++;
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(chunks).toBeGreaterThan(1);
    expect(await streamed.text).toBe(generated.text);
    expect((await streamed.usage).outputTokens).toBe(generated.usage.outputTokens);
  });

  it('ends a hanging stream at the timeout', async () => {
    const context: GenerationContext = { task: 'definition', idea: IDEAS.web[0]!, type: 'web' };
    const streamed = streamText({
      model,
      prompt: renderPrompt(context),
      timeout: 100,
      providerOptions: simulated(context, { hang: true }),
      onError: () => {},
    });
    await expect(streamed.text).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});
