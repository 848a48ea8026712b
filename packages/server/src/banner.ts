import type { Config } from './config.ts';

/**
 * What the start-up banner says about who writes the documents: for each key mode, the
 * model chain, and plainly when it is the offline engine (rules and templates, no AI) with
 * how to configure a model. A newcomer's first project comes from that engine; they should
 * not mistake it for a model's work.
 *
 * @example
 * engineLines({ models: [{ provider: 'offline', model: 'pgs-offline-1' }], testModels: [...] });
 */
export function engineLines(config: Pick<Config, 'models' | 'testModels'>): string[] {
  const chain = (specs: Config['models']) =>
    specs.map((spec) =>
      spec.provider === 'offline' ? 'offline' : `${spec.provider}:${spec.model}`,
    );
  const offlineOnly = (specs: Config['models']) =>
    specs.every((spec) => spec.provider === 'offline');
  const lines = [
    `Documents: live keys ${chain(config.models).join(' → ')}, test keys ${chain(config.testModels).join(' → ')}`,
  ];
  if (offlineOnly(config.models) || offlineOnly(config.testModels)) {
    lines.push(
      '  offline = the built-in engine: documents drafted from the idea by rules and templates, no AI model.',
      '  For AI-written documents set PGS_MODELS (live keys) or PGS_TEST_MODELS (test keys), e.g.',
      '  PGS_MODELS=openai:gpt-4.1-mini OPENAI_API_KEY=… npm start   (README: "Generating with AI models")',
    );
  }
  return lines;
}
